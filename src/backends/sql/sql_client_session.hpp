// A client core's session on PostgreSQL or MySQL (core/backend_session.hpp),
// lease mode (docs/design/backends.md 3.3), or session mode (3.4: each hold a
// server session's lock on a pinned connection, in session_holds, watched by
// the SessionKeeper instead of renewed): the connections its statements
// take (sql_pool), the table's statements (lease_dialect: dlock's lock table
// or ShedLock's), on PostgreSQL's lock table the LISTEN connection that wakes
// its waiters (pg_listener), and the keeper that renews all its rows in one statement.
// A hold's lease is a row's, by the server's clock: fixed leases are served,
// and the watchdog's lease is the configured one.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "backends/sql/leader_table.hpp"
#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/lease_wakeups.hpp"
#include "backends/sql/permit_tables.hpp"
#include "backends/sql/session_dialect.hpp"
#include "backends/sql/session_holds.hpp"
#include "backends/sql/sql_held.hpp"
#include "backends/sql/sql_keeper.hpp"
#include "backends/sql/sql_pool.hpp"
#include "backends/sql/sql_url.hpp"
#include "core/backend_session.hpp"
#include "core/client_core.hpp"

namespace dlock {

class SqlClientSession final : public BackendSession {
 public:
  // Connects to `url` (lease mode), creates the table when missing and the
  // user may (else AuthError naming the statements), and on PostgreSQL opens
  // the LISTEN connection. Throws ConnectionError, AuthError.
  explicit SqlClientSession(const sql::SqlUrl& url);

  const char* scheme() const override { return sql::scheme_of(url_.dialect); }
  const std::string& describe() const override { return server_; }
  HoldKeeper& keeper() override;
  // Session mode: a hold is checked every third of this (its pinned
  // session's end is noticed within it), 3 s at most.
  int64_t watchdog_lease_ms(int64_t configured) const override;
  void start(std::function<void()> /*check_holds_now*/) override {}
  // One SELECT 1.
  void ping() override;
  // Ends the hold's row's lease (session mode: unlocks on its pinned connection).
  void release(const Hold& hold, const std::string& request_id, int64_t latch_ms,
               std::optional<Clock::time_point> once_before) override;
  // The connections reopen by themselves on their next statement, uncounted.
  uint64_t reconnects() const override { return 0; }
  void begin_close() override {}
  // Closes the idle connections (the others as they come back) and, in
  // session mode, the pinned connections of holds still kept.
  void close() override;

  const sql::SqlUrl& url() const { return url_; }
  bool session_mode() const { return url_.mode == sql::SqlMode::session; }
  sql::SqlPool& pool() { return pool_; }
  // Session mode's statements and holds.
  const sql::SessionDialect& session_dialect() const { return *session_dialect_; }
  sql::SessionHolds& session_holds() { return session_holds_; }
  const sql::LeaseDialect& dialect() const { return *dialect_; }
  // The leased-permit semaphore's tables, created on first use when missing
  // and the user may (sql_schema). Throws UnsupportedError naming the
  // backend and the option on ShedLock's table, AuthError, ConnectionError.
  const sql::PermitTables& permit_tables();
  // Elections' leader records (leader_table.hpp), their table created on
  // first use as the semaphore's are. Throws UnsupportedError naming the
  // backend and the option with table=shedlock or mode=session.
  const sql::LeaderTable& leader_table();
  // The statements of `rows`' table (permit_leases: permit_tables().rows()).
  const sql::LeaseDialect& rows(SqlRows rows);
  // What wakes a waiter on a release: PostgreSQL's listener on the lock
  // table; nullptr on MySQL and ShedLock's table, whose waiters back off.
  sql::LeaseWakeups* wakeups() { return wakeups_.get(); }

 private:
  // The tables lease mode keeps beside the lock table for what `serves`
  // (permit_tables, leader_table): refused with table=shedlock or
  // mode=session, naming the backend and the option; created when missing
  // and the user may, else an AuthError saying `missing`.
  template <typename Tables>
  void prepare_lease_tables(const std::string& serves, const Tables& tables, const std::string& missing);

  const sql::SqlUrl url_;
  const std::string server_;
  const std::unique_ptr<sql::LeaseDialect> dialect_;
  sql::SqlPool pool_;
  std::unique_ptr<sql::LeaseWakeups> wakeups_;
  std::mutex lease_tables_mutex_;
  std::unique_ptr<sql::PermitTables> permit_tables_;  // once first used
  std::unique_ptr<sql::LeaderTable> leader_table_;    // once first used
  SqlKeeper keeper_;
  const std::unique_ptr<sql::SessionDialect> session_dialect_;
  sql::SessionHolds session_holds_;
  sql::SessionKeeper session_keeper_{session_holds_};
};

// The SQL session of `core`; `core` is a SQL client's.
SqlClientSession& sql_session(ClientCore& core);

}  // namespace dlock
