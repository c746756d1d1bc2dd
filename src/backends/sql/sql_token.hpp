// Where fencing tokens come from, one copy per server kind for every table
// layout that grants with a token (the lock table, ShedLock's table):
// PostgreSQL's dlock_token_seq, MySQL's one-row dlock_token (MySQL has no
// sequences). docs/design/backends.md 3.2 and 3.7.
#pragma once

#include <string>
#include <vector>

#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_url.hpp"

namespace dlock {
namespace sql {

// The sequence or table that holds the token (for existence checks).
const char* token_source(SqlDialect dialect);
// CREATE ... IF NOT EXISTS statements for it, in order.
std::vector<std::string> token_schema(SqlDialect dialect);
// Whether `table` and the token's source both exist, creating nothing: what
// a layout's schema_exists() asks.
bool table_and_token_exist(SqlConnection& connection, SqlDialect dialect, const std::string& table);
// The GRANT statement that lets `user` draw tokens.
std::string token_grant(SqlDialect dialect, const std::string& user);

// PostgreSQL: an expression drawing the next token.
std::string pg_next_token();
// MySQL: a statement drawing the next token into LAST_INSERT_ID() when
// `condition` holds (an SQL condition, "TRUE" for always).
std::string mysql_next_token(const std::string& condition);

}  // namespace sql
}  // namespace dlock
