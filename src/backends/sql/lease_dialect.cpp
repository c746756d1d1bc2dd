#include "backends/sql/lease_dialect.hpp"

#include "backends/sql/mysql_lease_dialect.hpp"
#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {

std::optional<std::chrono::milliseconds> LeaseDialect::lease_left(SqlConnection& connection,
                                                                  const std::string& name) const {
  const SqlResult found = connection.execute(lease_left_statement_, {SqlParam::bytes(name)});
  if (found.rows.empty()) return std::nullopt;
  return std::chrono::milliseconds(integer_of(found.rows.front().at(0), connection));
}

std::unique_ptr<LeaseDialect> lease_dialect(SqlDialect dialect, const std::string& table) {
  return dialect == SqlDialect::postgresql ? pg_lease_dialect(table) : mysql_lease_dialect(table);
}

}  // namespace sql
}  // namespace dlock
