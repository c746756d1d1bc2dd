#include "backends/sql/sql_connection.hpp"

#include "common/error.hpp"
#if DLOCK_SQL_WITH_POSTGRESQL
#include "backends/sql/pg_connection.hpp"
#endif
#if DLOCK_SQL_WITH_MYSQL
#include "backends/sql/mysql_connection.hpp"
#endif

namespace dlock {
namespace sql {

std::unique_ptr<SqlConnection> connect(const SqlUrl& url) {
  switch (url.dialect) {
    case SqlDialect::postgresql:
#if DLOCK_SQL_WITH_POSTGRESQL
      return connect_postgresql(url);
#else
      break;
#endif
    case SqlDialect::mysql:
#if DLOCK_SQL_WITH_MYSQL
      return connect_mysql(url);
#else
      break;
#endif
  }
  throw UnsupportedError(std::string(scheme_of(url.dialect)) + "://: off in this build (no client library)");
}

}  // namespace sql
}  // namespace dlock
