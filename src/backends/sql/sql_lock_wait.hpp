// The lock's wait on a SQL lock table (core/lock_ops.hpp), run by the core's
// one wait engine: each try is one attempt_lease (granted: the token, and the
// grant's text as the locator). A refused try says when to look again: at
// the holder's lease end (+1 ms: a lease that runs out tells nobody) while
// PostgreSQL's LISTEN watches the name, else LeaseBackoff's next pause
// (MySQL, or while LISTEN cannot be sent), never past that lease end either.
// The watch is sent after the first refusal and signals the waiter once
// confirmed (a release before it was not announced to us) and on each
// NOTIFY. Nothing is queued on the server: abandoning stops the watch, and a
// try whose answer was lost is withdrawn by the core (ReentrantLock::withdraw,
// SqlLockOps' release of a grant without a locator). A semaphore's lease is
// waited for the same way, each try one attempt_permit_lease, its wakeups
// those of its lease rows' releases.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/sql/lease_backoff.hpp"
#include "backends/sql/lease_wakeups.hpp"
#include "backends/sql/sql_held.hpp"
#include "backends/sql/sql_lock_ops.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class SqlClientSession;

class SqlLockWait final : public LockWait {
 public:
  // `session` outlives the wait.
  SqlLockWait(SqlClientSession& session, std::string name, SqlRows rows, int max_leases,
              std::string owner_field, int64_t lease_ms, SqlLockOps::OnGrant on_grant);

  // Throws ConnectionError, AuthError (lease_steps' attempt_lease).
  Try attempt(int64_t wait_left_ms, bool woken_by_message) override;
  void watch(Waiter& waiter) override;
  void abandon() noexcept override { watch_.reset(); }

 private:
  SqlClientSession& session_;
  const std::string name_;
  const SqlRows rows_;
  const int max_leases_;
  const std::string owner_field_;
  const std::chrono::milliseconds lease_;
  const SqlLockOps::OnGrant on_grant_;
  sql::LeaseBackoff backoff_;
  std::unique_ptr<sql::LeaseWatch> watch_;
};

}  // namespace dlock
