// The lock table and the token's source, created on first use when the user
// may (CREATE ... IF NOT EXISTS); otherwise an error that gives the statements
// to run as a user who may (docs/design/backends.md 3.1).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

// Nothing when the schema exists; creates it when missing. Throws AuthError
// naming the statements when the user may not create it, ConnectionError.
void ensure_schema(SqlConnection& connection, const LeaseDialect& dialect);
// The same for any tables: `statements` create them, `exists` says whether
// they are there, `missing` says what is missing in the error. Creating
// them at the same time as another client does is no error.
void ensure_schema(SqlConnection& connection, const std::vector<std::string>& statements,
                   const std::function<bool()>& exists, const std::string& missing);

// The schema's statements, one per line, each ending in ';' (what
// `dlock schema --url` will print).
std::string schema_script(const LeaseDialect& dialect);
std::string schema_script(const std::vector<std::string>& statements);

}  // namespace sql
}  // namespace dlock
