#include "backends/sql/sql_schema.hpp"

#include "common/error.hpp"

namespace dlock {
namespace sql {

std::string schema_script(const std::vector<std::string>& statements) {
  std::string script;
  for (const std::string& statement : statements) script += statement + ";\n";
  return script;
}

std::string schema_script(const LeaseDialect& dialect) {
  return schema_script(dialect.schema());
}

void ensure_schema(SqlConnection& connection, const std::vector<std::string>& statements,
                   const std::function<bool()>& exists, const std::string& missing) {
  if (exists()) return;
  try {
    // PostgreSQL's CREATE ... IF NOT EXISTS run by two clients at once fails
    // one of them on a duplicate key: it runs them again, skipping what the
    // other made, a few times before it gives up.
    for (int attempt = 1;; ++attempt) {
      try {
        for (const std::string& statement : statements) connection.execute(statement);
        return;
      } catch (const ProtocolError&) {
        if (attempt == 3) {
          if (exists()) return;
          throw;
        }
      }
    }
  } catch (const AuthError& refused) {
    throw AuthError(std::string(refused.what()) + "; " + missing + ": run as a user who may\n" +
                    schema_script(statements));
  }
}

void ensure_schema(SqlConnection& connection, const LeaseDialect& dialect) {
  ensure_schema(
      connection, dialect.schema(), [&] { return dialect.schema_exists(connection); },
      "the lock table " + dialect.table() + " is missing and this user may not create it");
}

}  // namespace sql
}  // namespace dlock
