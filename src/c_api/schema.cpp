// dlock_schema: the statements an SQL backend runs to create what its locks
// use, for `dlock schema` and administrators who create it by hand.
#include <cstdlib>
#include <string>

#include "c_api/c_string.hpp"
#include "c_api/client_options.hpp"
#include "c_api/guarded.hpp"
#if defined(DLOCK_HAVE_POSTGRESQL) || defined(DLOCK_HAVE_MYSQL)
#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/leader_table.hpp"
#include "backends/sql/permit_tables.hpp"
#include "backends/sql/shedlock_dialect.hpp"
#include "backends/sql/sql_schema.hpp"
#include "backends/sql/sql_url.hpp"
#endif

using dlock::c_api::guarded;
using dlock::c_api::require;

extern "C" {

int dlock_schema(const char* url, char** script_out) {
  return guarded([&]() -> int {  // int: in a build without SQL it only throws
    require(script_out, "script_out");
    *script_out = nullptr;
    require(url, "url");
    const std::string backend = dlock::c_api::backend_for_url(url);  // UnsupportedError: not in this build
#if defined(DLOCK_HAVE_POSTGRESQL) || defined(DLOCK_HAVE_MYSQL)
    if (backend == "postgresql" || backend == "mysql") {
      const dlock::sql::SqlUrl parsed = dlock::sql::parse_sql_url(url);
      std::string script =
          dlock::sql::schema_script(*dlock::sql::lease_dialect(parsed.dialect, parsed.table));
      // The permit semaphore's tables and the elections' leader records, each
      // created on its first use (not on ShedLock's table).
      if (parsed.table != dlock::sql::kShedLockTable) {
        script += dlock::sql::schema_script(dlock::sql::permit_tables(parsed.dialect)->schema());
        script += dlock::sql::schema_script(dlock::sql::LeaderTable(parsed.dialect, parsed.table).schema());
      }
      *script_out = dlock::c_api::c_string(script);
      return DLOCK_OK;
    }
#endif
    throw dlock::UnsupportedError("url: the " + backend +
                                  " backend has no schema to create (postgresql:// and mysql:// have)");
  });
}

void dlock_schema_free(char* script) {
  std::free(script);
}

}  // extern "C"
