#include "backends/sql/sql_schema.hpp"

#include "common/error.hpp"

namespace dlock {
namespace sql {

std::string schema_script(const LeaseDialect& dialect) {
  std::string script;
  for (const std::string& statement : dialect.schema()) script += statement + ";\n";
  return script;
}

void ensure_schema(SqlConnection& connection, const LeaseDialect& dialect) {
  if (dialect.schema_exists(connection)) return;
  try {
    for (const std::string& statement : dialect.schema()) connection.execute(statement);
  } catch (const AuthError& refused) {
    throw AuthError(std::string(refused.what()) + "; the lock table " + dialect.table() +
                    " is missing and this user may not create it: run as a user who may\n" +
                    schema_script(dialect));
  }
}

}  // namespace sql
}  // namespace dlock
