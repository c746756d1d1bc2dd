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

}  // namespace

LeaseAttempt attempt_lease(SqlConnection& connection, const LeaseDialect& dialect, const std::string& name,
                           const std::string& owner, milliseconds lease) {
  LeaseAttempt attempt;
  try {
    attempt = dialect.acquire(connection, name, owner, lease);
  } catch (const AuthError& refused) {
    writes_refused(refused, "acquire", connection, dialect);
  }
  // Only a live row is adopted: PostgreSQL's refused branch reads the row as
  // the statement's snapshot saw it, which can be our own released row after
  // another owner's takeover committed (the contention test caught this).
  if (!attempt.granted && attempt.holder == owner && attempt.holder_lease_left > milliseconds(0)) {
    attempt.granted = true;
    attempt.holder.clear();
    attempt.holder_lease_left = milliseconds(0);
  }
  return attempt;
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
