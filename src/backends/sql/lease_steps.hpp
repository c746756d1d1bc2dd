// The lease-mode lock's steps on one name for one owner, each one round trip
// and no state kept: what LeaseLock (one owner's hold, its own wait loop) and
// the client's SqlLockOps and SqlLockWait (the core's holds and wait engine)
// both run, so each piece of logic has one copy (docs/design/backends.md 3.3).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/permit_tables.hpp"
#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

// One attempt: the dialect's acquire, with a live row already ours adopted
// (a retry after a grant whose answer was lost, S7). Throws ConnectionError
// (the answer may have been lost: attempt again, or withdraw), AuthError
// naming the GRANT to run when the user may not write the table.
LeaseAttempt attempt_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
                           const std::string& owner, std::chrono::milliseconds lease);

// One take of a lease of the semaphore `name` (PermitTables::acquire), with
// a live lease already ours adopted as attempt_lease does. Throws as attempt_lease.
LeaseAttempt attempt_permit_lease(SqlConnection& connection, const PermitTables& tables,
                                  const std::string& name, const std::string& owner,
                                  std::chrono::milliseconds lease, int max_leases);

// Ends the lease of `owner`'s grant `grant` on `name` (or with `keep` leaves
// the name locked that much longer); whether it was still held.
// `after_lost_send`: an earlier send of this release met a broken connection.
// It was sent before the hold's validity ended, so the row could change hands
// only after that send ended it: nothing to end now counts as released.
// Throws ConnectionError, AuthError as attempt_lease.
bool end_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
               const std::string& owner, const std::string& grant, std::chrono::milliseconds keep,
               bool after_lost_send);

// Ends `owner`'s live row of `name` whatever its grant (an attempt whose
// answer was lost); whether there was one. Throws ConnectionError.
bool withdraw_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
                    const std::string& owner);

}  // namespace sql
}  // namespace dlock
