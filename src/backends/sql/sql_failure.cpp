#include "backends/sql/sql_failure.hpp"

namespace dlock {
namespace sql {

void throw_sql_failure(SqlFailure failure, const std::string& server, const std::string& what) {
  const std::string message = server + ": " + what;
  switch (failure) {
    case SqlFailure::connection:
      throw ConnectionError(message);
    case SqlFailure::privilege:
      throw AuthError(message);
    case SqlFailure::rolled_back:
      throw RolledBackError(message);
    case SqlFailure::refused:
      break;
  }
  throw ProtocolError(message);
}

}  // namespace sql
}  // namespace dlock
