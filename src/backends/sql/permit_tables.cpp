#include "backends/sql/permit_tables.hpp"

#include "backends/sql/sql_failure.hpp"
#include "backends/sql/sql_values.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace sql {

std::optional<int> PermitTables::permits(SqlConnection& connection, const std::string& name) const {
  const SqlResult found = connection.execute(permits_query_, {SqlParam::bytes(name)});
  if (found.rows.empty()) return std::nullopt;
  return static_cast<int>(integer_of(found.rows.front().at(0), connection));
}

std::int64_t PermitTables::live_leases(SqlConnection& connection, const std::string& name) const {
  return integer_of(connection.execute(count_query_, {SqlParam::bytes(name)}).rows.at(0).at(0), connection);
}

namespace {

// How many times a transaction the server rolled back to break a deadlock is
// run: a second run normally waits behind the survivor and passes.
constexpr int kRunsAfterDeadlocks = 3;

SqlResult run_transaction(SqlConnection& connection,
                          const std::vector<std::pair<std::string, std::vector<SqlParam>>>& statements) {
  connection.execute("BEGIN");
  SqlResult last;
  try {
    for (const auto& [statement, params] : statements) last = connection.execute(statement, params);
    connection.execute("COMMIT");
  } catch (const ConnectionError&) {
    throw;  // the server ends the transaction with the connection
  } catch (const Error&) {
    try {
      connection.execute("ROLLBACK");
    } catch (const Error&) {
      // A connection that cannot roll back breaks, which ends the transaction too.
    }
    throw;
  }
  return last;
}

}  // namespace

SqlResult in_transaction(SqlConnection& connection,
                         const std::vector<std::pair<std::string, std::vector<SqlParam>>>& statements) {
  for (int run = 1;; ++run) {
    try {
      return run_transaction(connection, statements);
    } catch (const RolledBackError& error) {
      if (run == kRunsAfterDeadlocks) throw;
      if (log::enabled(DLOCK_LOG_DEBUG))
        log::emit(DLOCK_LOG_DEBUG, std::string(error.what()) + "; the transaction is run again");
    }
  }
}

std::unique_ptr<PermitTables> permit_tables(SqlDialect dialect) {
  return dialect == SqlDialect::postgresql ? pg_permit_tables() : mysql_permit_tables();
}

}  // namespace sql
}  // namespace dlock
