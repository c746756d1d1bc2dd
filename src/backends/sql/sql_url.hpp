// postgresql://user:pw@host:port/db?options (or postgres://, libpq's other
// name) and mysql://... (the project's specification, section 12), parsed into what the SQL connections and
// statements need. Options: table=T (default dlock_locks; letters, digits and
// '_', 63 at most, not starting with a digit; "shedlock" is ShedLock's
// layout), mode=lease (the default: a row with a lease by the server's clock)
// or mode=session (the hold is its pinned connection's session), connect_timeout_ms (default 5000),
// io_timeout_ms (default 10000: one round trip). Other options are refused.
#pragma once

#include <chrono>
#include <string>

namespace dlock {
namespace sql {

enum class SqlDialect { postgresql, mysql };
enum class SqlMode { lease, session };

struct SqlUrl {
  SqlDialect dialect = SqlDialect::postgresql;
  std::string host;
  int port = 0;
  std::string user;
  std::string password;
  std::string database;
  std::string table = "dlock_locks";
  SqlMode mode = SqlMode::lease;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds io_timeout{10000};

  // scheme://host:port/database, without credentials.
  std::string server() const;
};

// Throws InvalidArgument naming what is wrong.
SqlUrl parse_sql_url(const std::string& url);

const char* scheme_of(SqlDialect dialect);

}  // namespace sql
}  // namespace dlock
