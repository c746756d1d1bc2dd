#include "backends/sql/lease_dialect.hpp"

#include "backends/sql/mysql_lease_dialect.hpp"
#include "backends/sql/pg_lease_dialect.hpp"

namespace dlock {
namespace sql {

std::unique_ptr<LeaseDialect> lease_dialect(SqlDialect dialect, const std::string& table) {
  return dialect == SqlDialect::postgresql ? pg_lease_dialect(table) : mysql_lease_dialect(table);
}

}  // namespace sql
}  // namespace dlock
