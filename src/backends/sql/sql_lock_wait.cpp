#include "backends/sql/sql_lock_wait.hpp"

#include "backends/sql/lease_steps.hpp"
#include "backends/sql/sql_client_session.hpp"
#include "common/error.hpp"

namespace dlock {

SqlLockWait::SqlLockWait(SqlClientSession& session, std::string name, SqlRows rows, int max_leases,
                         std::string owner_field, int64_t lease_ms, SqlLockOps::OnGrant on_grant)
    : session_(session),
      name_(std::move(name)),
      rows_(rows),
      max_leases_(max_leases),
      owner_field_(std::move(owner_field)),
      lease_(std::chrono::milliseconds(lease_ms)),
      on_grant_(std::move(on_grant)) {}

LockWait::Try SqlLockWait::attempt(int64_t /*wait_left_ms*/, bool /*woken_by_message*/) {
  Try outcome;
  outcome.sent_at = Clock::now();
  const sql::LeaseAttempt attempt = [&] {
    sql::SqlPool::Lease connection = session_.pool().take();
    if (rows_ == SqlRows::permit_leases) {
      return sql::attempt_permit_lease(*connection, session_.permit_tables(), name_, owner_field_, lease_,
                                       max_leases_);
    }
    sql::LeaseAttempt leased = sql::attempt_lease(*connection, session_.dialect(), name_, owner_field_, lease_);
    if (leased.granted && on_grant_) on_grant_(*connection, name_, leased.token);
    return leased;
  }();
  if (attempt.granted) {
    outcome.granted = true;
    outcome.token = attempt.token;
    outcome.locator = attempt.grant;
    return outcome;
  }
  outcome.retry_after = watch_ ? attempt.holder_lease_left + std::chrono::milliseconds(1)
                               : backoff_.next(attempt.holder_lease_left);
  return outcome;
}

void SqlLockWait::watch(Waiter& waiter) {
  sql::LeaseWakeups* wakeups = session_.wakeups();
  if (wakeups == nullptr || watch_) return;
  try {
    sql::SqlPool::Lease connection = session_.pool().take();
    watch_ =
        wakeups->watch(*connection, session_.rows(rows_).table(), name_, [&waiter] { waiter.signal(true); });
  } catch (const ConnectionError&) {
    return;  // backs off as the last try said; watching is tried again after the next
  }
  waiter.signal();  // a release before LISTEN was confirmed was not announced to us
}

}  // namespace dlock
