#include "backends/sql/sql_client_session.hpp"

#include <algorithm>

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
      keeper_(pool_, [this](SqlRows rows) -> const sql::LeaseDialect& { return this->rows(rows); }),
      session_dialect_(session_mode() ? sql::session_dialect(url.dialect, url.table) : nullptr) {
  {
    // Session mode takes its tokens from the same source as the lease table's.
    sql::SqlPool::Lease connection = pool_.take();
    sql::ensure_schema(*connection, *dialect_);
  }
  // Session mode's releases announce nothing: its waiters back off.
  if (!session_mode()) wakeups_ = wakeups_for(url_);
}

HoldKeeper& SqlClientSession::keeper() {
  if (session_mode()) return session_keeper_;
  return keeper_;
}

int64_t SqlClientSession::watchdog_lease_ms(int64_t configured) const {
  if (!session_mode()) return configured;
  return std::min<int64_t>(configured, 3000);
}

void SqlClientSession::ping() {
  pool_.take()->execute("SELECT 1");
}

void SqlClientSession::release(const Hold& hold, const std::string& /*request_id*/, int64_t /*latch_ms*/,
                               std::optional<Clock::time_point> /*once_before*/) {
  if (session_mode()) {
    const std::unique_ptr<sql::SessionLock> lock = session_holds_.take(hold.grant.locator);
    if (lock) lock->release();  // LostError: the session, and the lock, ended already
    return;
  }
  sql::SqlPool::Lease connection = pool_.take();
  sql::end_lease(*connection, rows(rows_of_hold(hold)), hold.resource->name(), hold.grant.owner_field,
                 hold.grant.locator, std::chrono::milliseconds(0), false);
}

const sql::PermitTables& SqlClientSession::permit_tables() {
  std::lock_guard<std::mutex> lock(lease_tables_mutex_);
  if (!permit_tables_) {
    auto tables = sql::permit_tables(url_.dialect);
    prepare_lease_tables("the permit semaphore", *tables,
                         "the semaphore tables are missing and this user may not create them");
    permit_tables_ = std::move(tables);
  }
  return *permit_tables_;
}

const sql::LeaderTable& SqlClientSession::leader_table() {
  std::lock_guard<std::mutex> lock(lease_tables_mutex_);
  if (!leader_table_) {
    auto table = std::make_unique<sql::LeaderTable>(url_.dialect, dialect_->table());
    prepare_lease_tables("elections", *table, "the election table is missing and this user may not create it");
    leader_table_ = std::move(table);
  }
  return *leader_table_;
}

template <typename Tables>
void SqlClientSession::prepare_lease_tables(const std::string& serves, const Tables& tables,
                                            const std::string& missing) {
  if (url_.table == sql::kShedLockTable) {
    throw UnsupportedError(std::string("the ") + scheme() + " backend serves " + serves +
                           " on dlock's tables, not with table=shedlock");
  }
  if (session_mode()) {
    throw UnsupportedError(std::string("the ") + scheme() + " backend serves " + serves +
                           " in mode=lease, not with mode=session");
  }
  sql::SqlPool::Lease connection = pool_.take();
  sql::ensure_schema(
      *connection, tables.schema(), [&] { return tables.schema_exists(*connection); }, missing);
}

const sql::LeaseDialect& SqlClientSession::rows(SqlRows rows) {
  return rows == SqlRows::locks ? *dialect_ : permit_tables().rows();
}

void SqlClientSession::close() {
  // The listener stays until the session goes: a wait still ending holds its watch.
  pool_.close();
  // Holds taken unheard, never recorded: closing their connections frees them.
  session_holds_.take_all();
}

SqlClientSession& sql_session(ClientCore& core) {
  return dynamic_cast<SqlClientSession&>(core.session());
}

}  // namespace dlock
