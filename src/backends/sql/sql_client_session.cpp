#include "backends/sql/sql_client_session.hpp"

#include "backends/sql/lease_steps.hpp"
#include "backends/sql/shedlock_dialect.hpp"
#include "backends/sql/sql_schema.hpp"
#include "common/error.hpp"
#include "core/held_resource.hpp"
#if DLOCK_SQL_WITH_POSTGRESQL
#include "backends/sql/pg_listener.hpp"
#endif

namespace dlock {
namespace {

// PostgreSQL's lock table NOTIFYs its releases; ShedLock never does (its
// rows are Spring's too), so its waiters back off as MySQL's do.
std::unique_ptr<sql::LeaseWakeups> wakeups_for(const sql::SqlUrl& url) {
#if DLOCK_SQL_WITH_POSTGRESQL
  if (url.dialect == sql::SqlDialect::postgresql && url.table != sql::kShedLockTable) {
    return std::make_unique<sql::PgListener>(url);
  }
#endif
  (void)url;
  return nullptr;
}

}  // namespace

SqlClientSession::SqlClientSession(const sql::SqlUrl& url)
    : url_(url),
      server_(url.server()),
      dialect_(sql::lease_dialect(url.dialect, url.table)),
      pool_(url),
      keeper_(pool_, [this](SqlRows rows) -> const sql::LeaseDialect& { return this->rows(rows); }) {
  {
    sql::SqlPool::Lease connection = pool_.take();
    sql::ensure_schema(*connection, *dialect_);
  }
  wakeups_ = wakeups_for(url_);
}

void SqlClientSession::ping() {
  pool_.take()->execute("SELECT 1");
}

void SqlClientSession::release(const Hold& hold, const std::string& /*request_id*/, int64_t /*latch_ms*/,
                               std::optional<Clock::time_point> /*once_before*/) {
  sql::SqlPool::Lease connection = pool_.take();
  sql::end_lease(*connection, rows(rows_of_hold(hold)), hold.resource->name(), hold.grant.owner_field,
                 hold.grant.locator, std::chrono::milliseconds(0), false);
}

const sql::PermitTables& SqlClientSession::permit_tables() {
  std::lock_guard<std::mutex> lock(permit_tables_mutex_);
  if (permit_tables_) return *permit_tables_;
  if (url_.table == sql::kShedLockTable) {
    throw UnsupportedError(std::string("the ") + scheme() +
                           " backend serves the permit semaphore on dlock's tables, not with table=shedlock");
  }
  auto tables = sql::permit_tables(url_.dialect);
  {
    sql::SqlPool::Lease connection = pool_.take();
    sql::ensure_schema(
        *connection, tables->schema(), [&] { return tables->schema_exists(*connection); },
        "the semaphore tables are missing and this user may not create them");
  }
  permit_tables_ = std::move(tables);
  return *permit_tables_;
}

const sql::LeaseDialect& SqlClientSession::rows(SqlRows rows) {
  return rows == SqlRows::locks ? *dialect_ : permit_tables().rows();
}

void SqlClientSession::close() {
  // The listener stays until the session goes: a wait still ending holds its watch.
  pool_.close();
}

SqlClientSession& sql_session(ClientCore& core) {
  return dynamic_cast<SqlClientSession&>(core.session());
}

}  // namespace dlock
