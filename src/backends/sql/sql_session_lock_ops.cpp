#include "backends/sql/sql_session_lock_ops.hpp"

#include <utility>

#include "backends/sql/lease_backoff.hpp"
#include "backends/sql/session_lock.hpp"
#include "backends/sql/sql_client_session.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

// One owner's wait: tries on a connection of its own, pinned from the first
// try, which becomes the hold's when granted.
class SessionWait final : public LockWait {
 public:
  SessionWait(SqlClientSession& session, std::string name) : session_(session), name_(std::move(name)) {}

  Try attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) override {
    Try result;
    result.sent_at = std::chrono::steady_clock::now();
    if (!lock_) {
      lock_ =
          std::make_unique<sql::SessionLock>(sql::connect(session_.url()), session_.session_dialect(), name_);
    }
    if (lock_->try_acquire()) {
      result.granted = true;
      result.token = lock_->token();
      result.locator = session_.session_holds().add(std::move(lock_));
      return result;
    }
    result.retry_after = backoff_.next(sql::kNoLeaseEnd);
    return result;
  }

  void watch(Waiter& /*waiter*/) override {}

  // Closing the pinned connection ends its session, and any lock it took unheard.
  void abandon() noexcept override { lock_.reset(); }

 private:
  SqlClientSession& session_;
  const std::string name_;
  std::unique_ptr<sql::SessionLock> lock_;
  sql::LeaseBackoff backoff_;
};

struct NoWatch final : WaitWatch {};

}  // namespace

SqlSessionLockOps::SqlSessionLockOps(SessionOf session, std::string name)
    : session_(std::move(session)),
      name_(std::move(name)),
      scheme_(session_().scheme()),
      held_(std::make_shared<SqlHeld>(name_, SqlRows::locks)) {
  session_().dialect().check_name(name_);  // the lock table's rule, SessionLock's too
}

std::unique_ptr<LockWait> SqlSessionLockOps::begin(const std::string& /*owner_field*/, int64_t /*lease_ms*/) {
  return std::make_unique<SessionWait>(session_(), name_);
}

std::unique_ptr<WaitWatch> SqlSessionLockOps::watch_releases(Waiter& /*waiter*/) {
  return std::make_unique<NoWatch>();
}

bool SqlSessionLockOps::release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) {
  return settle_release(grant, request_id, latch_ms)(std::nullopt) != 0;
}

Settle SqlSessionLockOps::settle_release(const GrantRef& grant, const std::string& /*request_id*/,
                                         int64_t /*latch_ms*/) {
  return [session = session_, locator = grant.locator](std::optional<Clock::time_point>) -> int64_t {
    if (locator.empty()) return 0;
    const std::unique_ptr<sql::SessionLock> lock = session().session_holds().take(locator);
    if (!lock) return 0;
    try {
      lock->release();
      return 1;
    } catch (const LostError&) {
      return 0;
    }
  };
}

LockOps::Extension SqlSessionLockOps::extend(const GrantRef& /*grant*/, int64_t /*lease_ms*/) {
  unsupported("extend",
              "holds a mode=session lock for its connection's session: there is no lease to extend");
}

bool SqlSessionLockOps::release_keeping(const GrantRef& /*grant*/, int64_t /*keep_ms*/) {
  unsupported("release_keeping", "cannot keep a mode=session lock past its release");
}

bool SqlSessionLockOps::force_release() {
  unsupported("force_release", "cannot end another session's mode=session lock");
}

bool SqlSessionLockOps::is_locked() {
  unsupported("is_locked", "cannot read who holds a mode=session lock");
}

int64_t SqlSessionLockOps::ttl_ms() {
  unsupported("ttl", "cannot read who holds a mode=session lock");
}

}  // namespace dlock
