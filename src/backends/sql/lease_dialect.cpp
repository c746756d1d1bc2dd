#include "backends/sql/lease_dialect.hpp"

#include "backends/sql/mysql_lease_dialect.hpp"
#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {

std::optional<std::chrono::milliseconds> LeaseDialect::lease_left(SqlConnection& connection,
                                                                  const std::string& name) const {
  const SqlResult found = connection.execute(statements_.lease_left, {SqlParam::bytes(name)});
  if (found.rows.empty()) return std::nullopt;
  return std::chrono::milliseconds(integer_of(found.rows.front().at(0), connection));
}

std::uint64_t LeaseDialect::release(SqlConnection& connection, const std::string& name,
                                    const std::string& owner, std::uint64_t token) const {
  return connection
      .execute(statements_.release,
               {SqlParam::bytes(name), SqlParam::text(owner), SqlParam::text(std::to_string(token))})
      .affected;
}

std::uint64_t LeaseDialect::withdraw(SqlConnection& connection, const std::string& name,
                                     const std::string& owner) const {
  return connection.execute(statements_.withdraw, {SqlParam::bytes(name), SqlParam::text(owner)}).affected;
}

std::unique_ptr<LeaseDialect> lease_dialect(SqlDialect dialect, const std::string& table) {
  return dialect == SqlDialect::postgresql ? pg_lease_dialect(table) : mysql_lease_dialect(table);
}

}  // namespace sql
}  // namespace dlock
