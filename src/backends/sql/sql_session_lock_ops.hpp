// The reentrant lock's operations in session mode (`?mode=session`,
// docs/design/backends.md 3.4): a grant is the server session's lock
// (pg_try_advisory_lock, GET_LOCK) on a connection pinned for the hold, kept
// in the client session's SessionHolds under the grant's token; the hold is
// lost when that connection's session ends, and the server frees the name
// then (a holder's process killed frees it at once). No lease: lease_ms must
// be -1 (fixed_leases() false), and there is nothing to extend, keep or
// inspect. Nothing announces a release either: a waiter backs off (10 ms
// doubling to 500 ms) on its own pinned connection.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "backends/sql/sql_held.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class SqlClientSession;

class SqlSessionLockOps final : public LockOps {
 public:
  using SessionOf = std::function<SqlClientSession&()>;

  // Throws InvalidArgument for a name the server's session locks cannot take.
  SqlSessionLockOps(SessionOf session, std::string name);

  const char* backend() const override { return scheme_; }
  bool fixed_leases() const override { return false; }
  bool reentrant() const override { return true; }
  const std::string& name() const override { return name_; }
  const std::string& hold_key() const override { return name_; }
  std::string hold_field(const std::string& client_field) const override { return client_field; }
  std::shared_ptr<const HeldResource> held() const override { return held_; }

  std::unique_ptr<LockWait> begin(const std::string& owner_field, int64_t lease_ms) override;
  // Nothing to watch: the member's wait backs off on its own.
  std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) override;
  // Unlocks on the hold's pinned connection and closes it. A grant with no
  // locator (a withdrawal) has nothing kept: the wait's connection, closed
  // when the wait ended, took what it may have held with it.
  bool release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  Settle settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  Extension extend(const GrantRef& grant, int64_t lease_ms) override;
  bool keeps() const override { return false; }
  bool release_keeping(const GrantRef& grant, int64_t keep_ms) override;
  bool force_release() override;
  bool is_locked() override;
  int64_t ttl_ms() override;

 private:
  const SessionOf session_;
  const std::string name_;
  const char* const scheme_;
  const std::shared_ptr<const HeldResource> held_;
};

}  // namespace dlock
