#include "backends/sql/sql_token.hpp"

#include "backends/sql/sql_values.hpp"

namespace dlock {
namespace sql {

const char* token_source(SqlDialect dialect) {
  return dialect == SqlDialect::postgresql ? "dlock_token_seq" : "dlock_token";
}

std::vector<std::string> token_schema(SqlDialect dialect) {
  if (dialect == SqlDialect::postgresql) return {"CREATE SEQUENCE IF NOT EXISTS dlock_token_seq AS bigint"};
  return {
      "CREATE TABLE IF NOT EXISTS dlock_token (id TINYINT PRIMARY KEY, v BIGINT UNSIGNED NOT NULL)"
      " ENGINE=InnoDB",
      "INSERT IGNORE INTO dlock_token VALUES (1, 0)"};
}

bool table_and_token_exist(SqlConnection& connection, SqlDialect dialect, const std::string& table) {
  const std::vector<SqlParam> names{SqlParam::text(table), SqlParam::text(token_source(dialect))};
  if (dialect == SqlDialect::postgresql) {
    const SqlResult found =
        connection.execute("SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL", names);
    return boolean_of(found.rows.at(0).at(0), connection);
  }
  const SqlResult found = connection.execute(
      "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN (?, "
      "?)",
      names);
  return unsigned_of(found.rows.at(0).at(0), connection) == 2;
}

std::string token_grant(SqlDialect dialect, const std::string& user) {
  if (dialect == SqlDialect::postgresql) return "GRANT USAGE ON SEQUENCE dlock_token_seq TO \"" + user + "\"";
  return "GRANT SELECT, UPDATE ON dlock_token TO '" + user + "'";
}

// nextval() alone: a sequence never goes back, not even after a crash (it
// logs values ahead); the design's floor of server time (3.2) could lower it
// under concurrent grants (risk 9) and waits for the lead's choice.
std::string pg_next_token() {
  return "nextval('dlock_token_seq')";
}

// Under the row's lock, so atomic; LAST_INSERT_ID(expr) is per connection.
// The time floor survives a restored backup or a replica that missed tokens.
std::string mysql_next_token(const std::string& condition) {
  return "UPDATE dlock_token SET v = LAST_INSERT_ID(GREATEST(v + 1, CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS "
         "UNSIGNED))) WHERE id = 1 AND " +
         condition;
}

}  // namespace sql
}  // namespace dlock
