#include "backends/sql/sql_lock_ops.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "backends/sql/lease_steps.hpp"
#include "backends/sql/sql_client_session.hpp"
#include "backends/sql/sql_lock_wait.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

// Keeps a group member's LISTEN while it lives.
class SqlReleaseWatch final : public WaitWatch {
 public:
  explicit SqlReleaseWatch(std::unique_ptr<sql::LeaseWatch> watch) : watch_(std::move(watch)) {}

 private:
  std::unique_ptr<sql::LeaseWatch> watch_;
};

}  // namespace

SqlLockOps::SqlLockOps(SessionOf session, std::string name, SqlRows rows, int max_leases, OnGrant on_grant)
    : session_(std::move(session)),
      name_(std::move(name)),
      rows_(rows),
      max_leases_(max_leases),
      on_grant_(std::move(on_grant)),
      scheme_(session_().scheme()),
      held_(std::make_shared<SqlHeld>(name_, rows_)) {
  session_().rows(rows_).check_name(name_);
}

std::unique_ptr<LockWait> SqlLockOps::begin(const std::string& owner_field, int64_t lease_ms) {
  return std::make_unique<SqlLockWait>(session_(), name_, rows_, max_leases_, owner_field, lease_ms, on_grant_);
}

std::unique_ptr<WaitWatch> SqlLockOps::watch_releases(Waiter& waiter) {
  SqlClientSession& session = session_();
  sql::LeaseWakeups* wakeups = session.wakeups();
  if (wakeups == nullptr) return std::make_unique<SqlReleaseWatch>(nullptr);
  sql::SqlPool::Lease connection = session.pool().take();
  return std::make_unique<SqlReleaseWatch>(
      wakeups->watch(*connection, session.rows(rows_).table(), name_, [&waiter] { waiter.signal(true); }));
}

bool SqlLockOps::release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) {
  return settle_release(grant, request_id, latch_ms)(std::nullopt) != 0;
}

Settle SqlLockOps::settle_release(const GrantRef& grant, const std::string& /*request_id*/,
                                  int64_t /*latch_ms*/) {
  // Each try is one statement, bounded by the URL's io_timeout_ms: `once_before` adds nothing.
  return
      [session = session_, name = name_, rows = rows_, grant,
       lost_send = std::make_shared<std::atomic<bool>>(false)](std::optional<Clock::time_point>) -> int64_t {
        SqlClientSession& on = session();
        sql::SqlPool::Lease connection = on.pool().take();
        if (grant.locator.empty())
          return sql::withdraw_lease(*connection, on.rows(rows), name, grant.owner_field);
        try {
          return sql::end_lease(*connection, on.rows(rows), name, grant.owner_field, grant.locator,
                                std::chrono::milliseconds(0), lost_send->load());
        } catch (const ConnectionError&) {
          lost_send->store(true);
          throw;
        }
      };
}

LockOps::Extension SqlLockOps::extend(const GrantRef& grant, int64_t lease_ms) {
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  Extension extension{};
  extension.sent_at = Clock::now();
  const std::vector<uint64_t> renewed =
      session.rows(rows_).renew(*connection, client_of(grant.owner_field),
                                {{name_, grant.token, grant.locator}}, std::chrono::milliseconds(lease_ms));
  extension.still_owned = std::find(renewed.begin(), renewed.end(), grant.token) != renewed.end();
  return extension;
}

bool SqlLockOps::release_keeping(const GrantRef& grant, int64_t keep_ms) {
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  return sql::end_lease(*connection, session.rows(rows_), name_, grant.owner_field, grant.locator,
                        std::chrono::milliseconds(keep_ms), false);
}

bool SqlLockOps::force_release() {
  if (rows_ != SqlRows::locks) unsupported("force_release", "does not force a permit's release");
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.dialect().force_end(*connection, name_) > 0;
}

bool SqlLockOps::is_locked() {
  return ttl_ms() != -2;
}

int64_t SqlLockOps::ttl_ms() {
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  const std::optional<std::chrono::milliseconds> left = session.rows(rows_).lease_left(*connection, name_);
  return left ? left->count() : -2;
}

LockInspection SqlLockOps::inspect() {
  if (rows_ != SqlRows::locks) return LockOps::inspect();
  SqlClientSession& session = session_();
  sql::SqlPool::Lease connection = session.pool().take();
  LockInspection inspection;
  const std::optional<sql::LeaseRow> row = session.dialect().row(*connection, name_);
  if (!row) return inspection;
  inspection.last_token = row->token;
  if (row->live()) {
    inspection.holders.push_back({row->holder, 1});
    inspection.ttl_ms = row->left.count();
  }
  return inspection;
}

bool SqlLockOps::note_holder(const std::string& field, const std::string& note) {
  SqlClientSession& session = session_();
  if (rows_ != SqlRows::locks || !session.dialect().keeps_notes()) return LockOps::note_holder(field, note);
  sql::SqlPool::Lease connection = session.pool().take();
  return session.dialect().note_holder(*connection, name_, field, note);
}

std::optional<HolderNote> SqlLockOps::holder_note() {
  SqlClientSession& session = session_();
  if (rows_ != SqlRows::locks || !session.dialect().keeps_notes()) return LockOps::holder_note();
  sql::SqlPool::Lease connection = session.pool().take();
  return session.dialect().holder_note(*connection, name_);
}

}  // namespace dlock
