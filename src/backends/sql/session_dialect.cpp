#include "backends/sql/session_dialect.hpp"

namespace dlock {
namespace sql {

std::unique_ptr<SessionDialect> session_dialect(SqlDialect dialect, const std::string& table) {
  return dialect == SqlDialect::postgresql ? pg_session_dialect(table) : mysql_session_dialect(table);
}

}  // namespace sql
}  // namespace dlock
