#include "backends/sql/lease_steps.hpp"

#include "common/error.hpp"

namespace dlock {
namespace sql {
namespace {

using std::chrono::milliseconds;

[[noreturn]] void writes_refused(const std::exception& refused, const char* operation,
                                 SqlConnection& connection, const LeaseDialect& dialect) {
  throw AuthError(std::string(refused.what()) + " (" + operation + " on " + dialect.table() +
                  "); let the user write it: " + dialect.grant(connection.user()));
}

// A live row already ours, which the acquire reports refused with us as
// holder, is adopted. Only a live one: PostgreSQL's refused branch reads the
// row as the statement's snapshot saw it, which can be our own released row
// after another owner's takeover committed (the contention test caught this).
LeaseAttempt adopted(LeaseAttempt attempt, const std::string& owner) {
  if (!attempt.granted && attempt.holder == owner && attempt.holder_lease_left > milliseconds(0)) {
    attempt.granted = true;
    attempt.holder.clear();
    attempt.holder_lease_left = milliseconds(0);
  }
  return attempt;
}

}  // namespace

LeaseAttempt attempt_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
                           const std::string& owner, milliseconds lease) {
  try {
    return adopted(dialect.acquire(connection, name, owner, lease), owner);
  } catch (const AuthError& refused) {
    writes_refused(refused, "acquire", connection, dialect);
  }
}

LeaseAttempt attempt_permit_lease(SqlConnection& connection, const PermitTables& tables,
                                  const std::string& name, const std::string& owner, milliseconds lease,
                                  int max_leases) {
  try {
    return adopted(tables.acquire(connection, name, owner, lease, max_leases), owner);
  } catch (const AuthError& refused) {
    writes_refused(refused, "acquire", connection, tables.rows());
  }
}

bool end_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
               const std::string& owner, const std::string& grant, milliseconds keep, bool after_lost_send) {
  std::uint64_t ended = 0;
  try {
    ended = dialect.release(connection, name, owner, grant, keep);
  } catch (const AuthError& refused) {
    writes_refused(refused, "release", connection, dialect);
  }
  return ended > 0 || after_lost_send;
}

bool withdraw_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
                    const std::string& owner) {
  return dialect.withdraw(connection, name, owner) > 0;
}

}  // namespace sql
}  // namespace dlock
