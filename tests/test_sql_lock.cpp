// The SQL backend's lease-mode lock (src/backends/sql, docs/design/backends.md
// 3.1-3.3) against real servers, each case on PostgreSQL 15 and MariaDB 10.11
// started for it on a claimed loopback port: grants, re-entry, renewal,
// contention judged by the fenced store and the safety checker, a holder
// killed, a connection killed, the server restarted, a closed port, names,
// and a table the user may not write.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/lease_lock.hpp"
#include "backends/sql/session_dialect.hpp"
#include "backends/sql/session_lock.hpp"
#if DLOCK_SQL_WITH_POSTGRESQL
#include "backends/sql/pg_listener.hpp"
#include "pg_server.hpp"
#endif
#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_schema.hpp"
#include "common/error.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "redis_server.hpp"  // pick_free_port
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "sql_test_params.hpp"
#include "sql_test_server.hpp"
#include "temp_dir.hpp"

namespace dlock_test {
namespace {

using dlock::sql::LeaseAttempt;
using dlock::sql::LeaseDialect;
using dlock::sql::LeaseHold;
using dlock::sql::LeaseLock;
using dlock::sql::SqlConnection;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kClient = "6f1c2a8e-0000-4000-8000-00000000000a";
constexpr const char* kOtherClient = "6f1c2a8e-0000-4000-8000-00000000000b";

std::string owner_of(const char* client, int thread) {
  return std::string(client) + ":" + std::to_string(thread);
}

class SqlLock : public ::testing::TestWithParam<SqlServerKind> {
 protected:
  void SetUp() override {
    server_ = start_sql_server(GetParam());
    dialect_ = dlock::sql::lease_dialect(dialect_kind(), "dlock_locks");
    auto connection = connect();
    dlock::sql::ensure_schema(*connection, *dialect_);
  }

  dlock::sql::SqlDialect dialect_kind() const {
    return GetParam() == SqlServerKind::postgresql ? dlock::sql::SqlDialect::postgresql
                                                   : dlock::sql::SqlDialect::mysql;
  }

  std::unique_ptr<SqlConnection> connect(const std::string& url) {
    return dlock::sql::connect(dlock::sql::parse_sql_url(url));
  }
  std::unique_ptr<SqlConnection> connect() { return connect(server_->url()); }

  std::unique_ptr<SqlTestServer> server_;
  std::unique_ptr<LeaseDialect> dialect_;
};

// The URL alone, no server: what each part becomes and what is refused.
TEST(SqlUrl, PartsDefaultsAndPercentEscapes) {
  const dlock::sql::SqlUrl pg = dlock::sql::parse_sql_url(
      "postgresql://app%40ops:p%3Aw%2Fd@127.0.0.1/orders?table=job_locks&io_timeout_ms=250");
  EXPECT_EQ(pg.dialect, dlock::sql::SqlDialect::postgresql);
  EXPECT_EQ(pg.user, "app@ops");
  EXPECT_EQ(pg.password, "p:w/d");
  EXPECT_EQ(pg.host, "127.0.0.1");
  EXPECT_EQ(pg.port, 5432);
  EXPECT_EQ(pg.database, "orders");
  EXPECT_EQ(pg.table, "job_locks");
  EXPECT_EQ(pg.io_timeout, milliseconds(250));
  EXPECT_EQ(pg.connect_timeout, milliseconds(5000));
  EXPECT_EQ(pg.server(), "postgresql://127.0.0.1:5432/orders");

  const dlock::sql::SqlUrl my = dlock::sql::parse_sql_url("mysql://root@127.0.0.1:13306/dlock");
  EXPECT_EQ(my.dialect, dlock::sql::SqlDialect::mysql);
  EXPECT_EQ(my.port, 13306);
  EXPECT_EQ(my.password, "");
  EXPECT_EQ(my.table, "dlock_locks");

  // libpq's other name for the scheme.
  const dlock::sql::SqlUrl alias = dlock::sql::parse_sql_url("postgres://app@db.internal/orders");
  EXPECT_EQ(alias.dialect, dlock::sql::SqlDialect::postgresql);
  EXPECT_EQ(alias.host, "db.internal");
  EXPECT_EQ(alias.port, 5432);
  EXPECT_EQ(alias.server(), "postgresql://db.internal:5432/orders");
}

TEST(SqlUrl, BadUrlsAreInvalidArguments) {
  for (const char* url : {"redis://127.0.0.1/0", "postgresql://127.0.0.1", "postgresql://127.0.0.1/",
                          "postgresql://127.0.0.1:0/db", "postgresql://127.0.0.1:99999/db",
                          "postgresql://127.0.0.1/db?table=1st", "postgresql://127.0.0.1/db?table=a-b",
                          "postgresql://127.0.0.1/db?table=x;DROP", "mysql://127.0.0.1/db?mode=pessimistic",
                          "mysql://127.0.0.1/db?io_timeout_ms=0", "mysql://127.0.0.1/db?table",
                          "mysql://u:%zz@127.0.0.1/db", "mysql://@:3306/db"}) {
    EXPECT_THROW(dlock::sql::parse_sql_url(url), dlock::InvalidArgument) << url;
  }
  EXPECT_EQ(dlock::sql::parse_sql_url("mysql://127.0.0.1/db?mode=lease").mode, dlock::sql::SqlMode::lease);
  EXPECT_EQ(dlock::sql::parse_sql_url("mysql://127.0.0.1/db").mode, dlock::sql::SqlMode::lease);
  EXPECT_EQ(dlock::sql::parse_sql_url("postgresql://127.0.0.1/db?mode=session").mode,
            dlock::sql::SqlMode::session);
  EXPECT_THROW(dlock::sql::parse_sql_url("postgresql://127.0.0.1/db?mode=session&table=shedlock"),
               dlock::InvalidArgument);
}

TEST_P(SqlLock, GrantsRefusesAndReleasesWithRisingTokens) {
  auto a = connect();
  auto b = connect();
  LeaseLock first(*a, *dialect_, "job", owner_of(kClient, 1));
  LeaseLock second(*b, *dialect_, "job", owner_of(kOtherClient, 1));
  const LeaseAttempt granted = first.try_acquire(seconds(10));
  ASSERT_TRUE(granted.granted);
  EXPECT_GT(granted.token, 0u);

  const LeaseAttempt refused = second.try_acquire(seconds(10));
  EXPECT_FALSE(refused.granted);
  EXPECT_EQ(refused.holder, owner_of(kClient, 1));
  EXPECT_EQ(refused.token, granted.token);
  EXPECT_GT(refused.holder_lease_left, seconds(8));
  EXPECT_LE(refused.holder_lease_left, seconds(10));
  EXPECT_FALSE(second.held());

  first.release();
  EXPECT_FALSE(dialect_->lease_left(*b, "job").has_value());
  ASSERT_TRUE(second.try_acquire(seconds(10)).granted);
  EXPECT_GT(second.token(), granted.token);
  EXPECT_THROW(first.release(), dlock::NotOwnerError);
  second.release();
}

// Re-entry is counted in the client; the server adopts the owner's live row
// (same token) so a second acquire, or a retry after a lost answer, is granted.
TEST_P(SqlLock, OwnersSecondAcquireAdoptsItsRowAndOneReleaseFreesIt) {
  auto a = connect();
  auto b = connect();
  LeaseLock outer(*a, *dialect_, "reentrant", owner_of(kClient, 1));
  LeaseLock inner(*a, *dialect_, "reentrant", owner_of(kClient, 1));
  LeaseLock other(*b, *dialect_, "reentrant", owner_of(kClient, 2));
  ASSERT_TRUE(outer.try_acquire(seconds(10)).granted);
  ASSERT_TRUE(inner.try_acquire(seconds(10)).granted);
  EXPECT_EQ(inner.token(), outer.token());
  EXPECT_FALSE(other.try_acquire(seconds(10)).granted);
  outer.release();
  EXPECT_TRUE(other.try_acquire(seconds(10)).granted);
  EXPECT_GT(other.token(), outer.token());
}

TEST_P(SqlLock, ReleaseAfterTheLeaseEndedIsLostAndTheNextHolderKeepsIt) {
  auto a = connect();
  auto b = connect();
  LeaseLock late(*a, *dialect_, "short", owner_of(kClient, 1));
  LeaseLock next(*b, *dialect_, "short", owner_of(kOtherClient, 1));
  ASSERT_TRUE(late.try_acquire(milliseconds(300)).granted);
  const auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(next.acquire(seconds(10), seconds(5)));
  EXPECT_GE(std::chrono::steady_clock::now() - started, milliseconds(200));
  EXPECT_GT(next.token(), late.token());
  EXPECT_THROW(late.release(), dlock::LostError);
  const auto left = dialect_->lease_left(*b, "short");
  ASSERT_TRUE(left.has_value());
  EXPECT_GT(*left, seconds(8));
  next.release();
}

// A release that keeps the name (3.3's release_keeping, `dlock run
// --hold-after-success`): the lease runs on for `keep` from the release, the
// releaser no longer holds, and the name is free once it ends.
TEST_P(SqlLock, ReleaseKeepingLeavesTheNameLockedForKeep) {
  auto a = connect();
  auto b = connect();
  LeaseLock job(*a, *dialect_, "kept", owner_of(kClient, 1));
  LeaseLock next(*b, *dialect_, "kept", owner_of(kOtherClient, 1));
  ASSERT_TRUE(job.try_acquire(seconds(30)).granted);
  const auto released_at = std::chrono::steady_clock::now();
  job.release(milliseconds(1500));
  EXPECT_FALSE(job.held());
  const LeaseAttempt refused = next.try_acquire(seconds(30));
  EXPECT_FALSE(refused.granted);
  EXPECT_GT(refused.holder_lease_left, milliseconds(1000));
  EXPECT_LE(refused.holder_lease_left, milliseconds(1500));
  ASSERT_TRUE(next.acquire(seconds(30), seconds(10)));
  const auto waited = std::chrono::steady_clock::now() - released_at;
  EXPECT_GE(waited, milliseconds(1300));
  EXPECT_LT(waited, milliseconds(3000));
  EXPECT_GT(next.token(), job.token());
  next.release();
}

// One statement renews every live hold of the client and names them; another
// client's hold, a stale token and a hold whose lease ended are not renewed
// (the ended one is never resurrected).
TEST_P(SqlLock, RenewExtendsOnlyTheClientsLiveHolds) {
  auto mine = connect();
  auto theirs = connect();
  LeaseLock a(*mine, *dialect_, "renew-a", owner_of(kClient, 1));
  LeaseLock b(*mine, *dialect_, std::string("renew-\0b", 8), owner_of(kClient, 2));
  LeaseLock ended(*mine, *dialect_, "renew-ended", owner_of(kClient, 1));
  LeaseLock foreign(*theirs, *dialect_, "renew-foreign", owner_of(kOtherClient, 1));
  ASSERT_TRUE(a.try_acquire(milliseconds(1500)).granted);
  ASSERT_TRUE(b.try_acquire(milliseconds(1500)).granted);
  ASSERT_TRUE(ended.try_acquire(milliseconds(100)).granted);
  ASSERT_TRUE(foreign.try_acquire(milliseconds(1500)).granted);
  std::this_thread::sleep_for(milliseconds(300));

  const std::vector<LeaseHold> holds{{a.name(), a.token()},
                                     {b.name(), b.token()},
                                     {ended.name(), ended.token()},
                                     {foreign.name(), foreign.token()},
                                     {a.name(), a.token() + 1000}};
  std::vector<std::uint64_t> kept = dialect_->renew(*mine, kClient, holds, seconds(20));
  std::sort(kept.begin(), kept.end());
  std::vector<std::uint64_t> expected{a.token(), b.token()};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(kept, expected);
  EXPECT_GT(*dialect_->lease_left(*theirs, a.name()), seconds(15));
  EXPECT_GT(*dialect_->lease_left(*theirs, b.name()), seconds(15));
  EXPECT_LE(*dialect_->lease_left(*theirs, foreign.name()), milliseconds(1500));
  EXPECT_FALSE(dialect_->lease_left(*theirs, ended.name()).has_value());
  EXPECT_TRUE(dialect_->renew(*mine, kClient, {}, seconds(20)).empty());
}

// Threads on their own connections take turns on one name, thread t holding
// each section (t + 1) * `hold`; the fenced store and the section log judge
// the run (tests/support/safety_checker), never a count of completions alone.
// On PostgreSQL the odd threads, each a client of its own, wait on their own
// PgListener and the even ones back off, so both paths contend; on MariaDB
// every thread backs off.
struct TurnsResult {
  SafetyReport report;
  FencedStoreState store;
  int failures = 0;
};

TurnsResult take_turns(const std::string& url, const LeaseDialect& dialect, int threads, int cycles,
                       milliseconds lease, milliseconds hold) {
  TempDir dir;
  FencedStore store(dir.file("store"));
  std::atomic<int> failures{0};
  {
    SectionLog log(dir.file("sections"));
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        try {
          const dlock::sql::SqlUrl parsed = dlock::sql::parse_sql_url(url);
          auto connection = dlock::sql::connect(parsed);
          std::unique_ptr<dlock::sql::LeaseWakeups> wakeups;
#if DLOCK_SQL_WITH_POSTGRESQL
          if (parsed.dialect == dlock::sql::SqlDialect::postgresql && t % 2 == 1) {
            wakeups = std::make_unique<dlock::sql::PgListener>(parsed);
          }
#endif
          for (int i = 0; i < cycles; ++i) {
            LeaseLock lock(*connection, dialect, "contended", owner_of(kClient, t));
            if (!lock.acquire(lease, seconds(60), wakeups.get())) {
              ++failures;
              return;
            }
            Section section;
            section.token = lock.token();
            section.owner = "sql" + std::to_string(t);
            section.start_ns = monotonic_ns();
            const long long value = store.read();
            std::this_thread::sleep_for(hold * (t + 1));
            section.write_accepted = store.write(lock.token(), value + 1);
            section.end_ns = monotonic_ns();
            log.append(section);
            try {
              lock.release();
            } catch (const dlock::LostError&) {
              // Expected only in the canary, whose leases end inside the section.
            }
          }
        } catch (const std::exception&) {
          ++failures;
        }
      });
    }
    for (auto& worker : workers) worker.join();
  }
  return {check_sections(SectionLog::read(dir.file("sections"))), store.state(), failures.load()};
}

TEST_P(SqlLock, ContendingConnectionsNeverOverlapAndTokensRise) {
  constexpr int threads = 4;
  constexpr int cycles = 40;
  const TurnsResult run =
      take_turns(server_->url(), *dialect_, threads, cycles, seconds(10), milliseconds(2));
  EXPECT_EQ(run.failures, 0);
  EXPECT_EQ(run.report.sections, static_cast<std::size_t>(threads * cycles));
  EXPECT_TRUE(run.report.clean()) << run.report.summary();
  EXPECT_EQ(run.store.value, threads * cycles);
  EXPECT_EQ(run.store.stale_rejections, 0);
}

// The checker can fail: leases shorter than the sections let holders overlap,
// and it says so; the fenced store refuses the writes of the holders that
// overran a shorter section started after theirs.
TEST_P(SqlLock, CanaryLeasesShorterThanSectionsAreFlagged) {
  const TurnsResult run = take_turns(server_->url(), *dialect_, 3, 6, milliseconds(40), milliseconds(120));
  EXPECT_EQ(run.failures, 0);
  EXPECT_GT(run.report.overlaps, 0u) << run.report.summary();
  EXPECT_GT(run.store.stale_rejections, 0);
}

// A holder process killed with SIGKILL never releases: the lock is free once
// its lease ends by the server's clock, not before, and the next token is larger.
TEST_P(SqlLock, HolderKilledFreesTheLockAtItsLeaseEnd) {
  constexpr milliseconds lease(1500);
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const std::string url = server_->url();
  const pid_t holder = fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    close(pipe_fds[0]);
    try {
      auto connection = dlock::sql::connect(dlock::sql::parse_sql_url(url));
      LeaseLock lock(*connection, *dialect_, "crash", owner_of(kOtherClient, 1));
      if (lock.try_acquire(lease).granted) {
        const std::uint64_t token = lock.token();
        (void)!write(pipe_fds[1], &token, sizeof token);
        pause();
      }
    } catch (...) {
    }
    _exit(1);
  }
  close(pipe_fds[1]);
  std::uint64_t holder_token = 0;
  const bool told = read(pipe_fds[0], &holder_token, sizeof holder_token) == sizeof holder_token;
  close(pipe_fds[0]);
  const auto granted_before = std::chrono::steady_clock::now();
  kill(holder, SIGKILL);
  int status = 0;
  waitpid(holder, &status, 0);
  ASSERT_TRUE(told) << "the holder process was not granted";

  auto connection = connect();
  LeaseLock next(*connection, *dialect_, "crash", owner_of(kClient, 1));
  EXPECT_FALSE(next.try_acquire(seconds(10)).granted);
  ASSERT_TRUE(next.acquire(seconds(10), seconds(10)));
  const auto waited = std::chrono::steady_clock::now() - granted_before;
  EXPECT_LT(waited, lease + milliseconds(700));
  EXPECT_GT(next.token(), holder_token);
  // Granted no earlier than the lease allows (it began before granted_before).
  EXPECT_GE(waited, lease - milliseconds(200));
}

// The server ends a holder's connection: the call that meets the break
// reports it, the next one connects again, and the hold (a row with a lease)
// is still the holder's to release.
TEST_P(SqlLock, KilledConnectionIsReportedThenReconnectedAndTheHoldSurvives) {
  auto a = connect();
  auto b = connect();
  LeaseLock holder(*a, *dialect_, "killed", owner_of(kClient, 1));
  LeaseLock probe(*a, *dialect_, "killed-probe", owner_of(kClient, 1));
  LeaseLock other(*b, *dialect_, "killed", owner_of(kOtherClient, 1));
  ASSERT_TRUE(holder.try_acquire(seconds(10)).granted);
  const std::uint64_t session = a->session_id();
  ASSERT_NE(session, 0u);
  server_->kill_session(session);
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_THROW(probe.try_acquire(seconds(10)), dlock::ConnectionError);
  EXPECT_FALSE(other.try_acquire(seconds(10)).granted);
  EXPECT_TRUE(probe.try_acquire(seconds(10)).granted);
  EXPECT_NE(a->session_id(), session);
  holder.release();
  EXPECT_TRUE(other.try_acquire(seconds(10)).granted);
}

// Killed with SIGKILL and started again, the server keeps the rows and the
// token's source: holds live on (renewed by the same statement) and the next
// token is larger than every earlier one.
TEST_P(SqlLock, ServerRestartKeepsLeasesAndTokensKeepRising) {
  auto a = connect();
  LeaseLock held(*a, *dialect_, "restart", owner_of(kClient, 1));
  ASSERT_TRUE(held.try_acquire(seconds(30)).granted);
  server_->kill9();
  EXPECT_THROW(held.release(), dlock::ConnectionError);  // the retry cannot connect either
  server_->restart();
  ASSERT_TRUE(dialect_->lease_left(*a, "restart").has_value()) << "the hold did not survive the restart";
  EXPECT_EQ(dialect_->renew(*a, kClient, {{"restart", held.token()}}, seconds(30)),
            std::vector<std::uint64_t>{held.token()});
  auto b = connect();
  LeaseLock other(*b, *dialect_, "restart", owner_of(kOtherClient, 1));
  EXPECT_FALSE(other.try_acquire(seconds(10)).granted);
  LeaseLock fresh(*b, *dialect_, "restart-fresh", owner_of(kOtherClient, 1));
  ASSERT_TRUE(fresh.try_acquire(seconds(10)).granted);
  EXPECT_GT(fresh.token(), held.token());
}

TEST_P(SqlLock, ClosedLoopbackPortIsAConnectionErrorNotAHang) {
  const int port = pick_free_port();  // claimed by this process, nothing listens
  const std::string url = std::string(GetParam() == SqlServerKind::postgresql ? "postgresql" : "mysql") +
                          "://root@127.0.0.1:" + std::to_string(port) + "/dlock?connect_timeout_ms=2000";
  const auto started = std::chrono::steady_clock::now();
  try {
    connect(url);
    FAIL() << "connected to a closed port";
  } catch (const dlock::ConnectionError& refused) {
    EXPECT_NE(std::string(refused.what()).find("127.0.0.1:" + std::to_string(port)), std::string::npos)
        << refused.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, seconds(3));
}

TEST_P(SqlLock, NamesOfOneAnd1024BytesAndBinaryNamesAreDistinctRows) {
  auto a = connect();
  auto b = connect();
  const std::vector<std::string> names{"n",
                                       std::string(1024, 'x'),
                                       std::string("\0", 1),
                                       std::string("\0\0", 2),
                                       "\xff\xfe\x80 not UTF-8",
                                       "'; DROP TABLE dlock_locks; --"};
  std::vector<std::unique_ptr<LeaseLock>> held;
  for (const std::string& name : names) {
    held.push_back(std::make_unique<LeaseLock>(*a, *dialect_, name, owner_of(kClient, 1)));
    ASSERT_TRUE(held.back()->try_acquire(seconds(10)).granted) << name.size() << " bytes";
  }
  for (const std::string& name : names) {
    LeaseLock other(*b, *dialect_, name, owner_of(kOtherClient, 1));
    EXPECT_FALSE(other.try_acquire(seconds(10)).granted) << name.size() << " bytes";
    EXPECT_TRUE(dialect_->lease_left(*b, name).has_value());
  }
  EXPECT_EQ(server_->query("SELECT COUNT(*) FROM dlock_locks"), std::to_string(names.size()));
  for (auto& lock : held) lock->release();
  EXPECT_THROW(LeaseLock(*a, *dialect_, "", owner_of(kClient, 1)), dlock::InvalidArgument);
  EXPECT_THROW(LeaseLock(*a, *dialect_, std::string(1025, 'x'), owner_of(kClient, 1)),
               dlock::InvalidArgument);
}

TEST_P(SqlLock, TableTheUserMayNotWriteIsAnAuthErrorNamingTheGrant) {
  auto reader = connect(server_->reader_url());
  dlock::sql::ensure_schema(*reader, *dialect_);  // exists: nothing to create
  LeaseLock lock(*reader, *dialect_, "read-only", owner_of(kClient, 1));
  try {
    lock.try_acquire(seconds(10));
    FAIL() << "a user without write rights was granted";
  } catch (const dlock::AuthError& refused) {
    const std::string message = refused.what();
    EXPECT_NE(message.find("GRANT SELECT, INSERT, UPDATE, DELETE ON dlock_locks TO"), std::string::npos)
        << message;
    EXPECT_NE(message.find("dlock_reader"), std::string::npos) << message;
  }
  EXPECT_FALSE(lock.held());
}

TEST_P(SqlLock, MissingSchemaTheUserMayNotCreateIsAnAuthErrorNamingTheStatements) {
  auto reader = connect(server_->reader_url());
  const auto other_table = dlock::sql::lease_dialect(dialect_kind(), "other_locks");
  try {
    dlock::sql::ensure_schema(*reader, *other_table);
    FAIL() << "a user without CREATE made the schema";
  } catch (const dlock::AuthError& refused) {
    const std::string message = refused.what();
    EXPECT_NE(message.find("CREATE TABLE IF NOT EXISTS other_locks"), std::string::npos) << message;
  }
}

// Session mode (docs/design/backends.md 3.4): each hold pins its own
// connection, the server's session lock is the hold, and the session ending
// frees the name and is the loss.
class SqlSession : public SqlLock {
 protected:
  std::unique_ptr<dlock::sql::SessionLock> session_lock(const std::string& name,
                                                        const std::string& table = "dlock_locks") {
    sessions_.push_back(dlock::sql::session_dialect(dialect_kind(), table));
    return std::make_unique<dlock::sql::SessionLock>(connect(), *sessions_.back(), name);
  }
  const dlock::sql::SessionDialect& session_dialect() {
    if (sessions_.empty()) sessions_.push_back(dlock::sql::session_dialect(dialect_kind(), "dlock_locks"));
    return *sessions_.front();
  }

  std::vector<std::unique_ptr<dlock::sql::SessionDialect>> sessions_;
};

TEST_P(SqlSession, GrantsRefusesAndReleasesWithRisingTokens) {
  auto first = session_lock("session-job");
  auto second = session_lock("session-job");
  ASSERT_TRUE(first->try_acquire());
  EXPECT_GT(first->token(), 0u);
  EXPECT_FALSE(second->try_acquire());
  EXPECT_FALSE(second->held());
  auto probe = connect();
  EXPECT_TRUE(session_dialect().locked(*probe, "session-job"));
  first->release();
  EXPECT_FALSE(session_dialect().locked(*probe, "session-job"));
  ASSERT_TRUE(second->try_acquire());
  EXPECT_GT(second->token(), first->token());
  EXPECT_THROW(first->release(), dlock::NotOwnerError);
  second->release();
  // Released means free for anyone, the first holder included, with a newer token.
  ASSERT_TRUE(first->try_acquire());
  EXPECT_GT(first->token(), second->token());
  first->release();
}

// Two owners of one client: each hold has its own pinned connection, so the
// server's per-session re-entry never lets the second owner in; the first
// owner's waiting peer gets the name once it is released.
TEST_P(SqlSession, TwoOwnersOfOneClientExcludeEachOther) {
  auto owner1 = session_lock("session-shared");
  auto owner2 = session_lock("session-shared");
  ASSERT_TRUE(owner1->acquire(seconds(5)));
  EXPECT_NE(owner1->session_id(), 0u);
  std::atomic<bool> granted{false};
  std::thread waiter([&] { granted = owner2->acquire(seconds(10)); });
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_FALSE(granted.load());
  owner1->release();
  waiter.join();
  EXPECT_TRUE(granted.load());
  EXPECT_GT(owner2->token(), owner1->token());
  EXPECT_NE(owner2->session_id(), owner1->session_id());
  owner2->release();
}

// The server ends the holder's session: the loss is seen on the pinned
// socket at once (not at a period's end), the name is free for another
// owner, and the late release reports the loss. A live session is not lost.
TEST_P(SqlSession, HoldersConnectionKilledFreesTheNameAndTheLossIsDetected) {
  auto holder = session_lock("session-killed");
  auto other = session_lock("session-killed");
  ASSERT_TRUE(holder->try_acquire());
  EXPECT_FALSE(holder->lost(milliseconds(300)));
  EXPECT_FALSE(other->try_acquire());

  std::atomic<std::int64_t> lost_ns{0};
  std::thread watcher([&] {
    if (holder->lost(seconds(20))) lost_ns = monotonic_ns();
  });
  std::this_thread::sleep_for(milliseconds(200));
  const std::int64_t killed_ns = monotonic_ns();
  server_->kill_session(holder->session_id());
  watcher.join();
  ASSERT_NE(lost_ns.load(), 0) << "the loss was not detected";
  EXPECT_LT(ms_between(killed_ns, lost_ns.load()), 3000);
  EXPECT_TRUE(holder->lost());

  ASSERT_TRUE(other->acquire(seconds(5)));
  EXPECT_GT(other->token(), holder->token());
  EXPECT_THROW(holder->release(), dlock::LostError);
  other->release();
}

// Keys come from the table and the name, any bytes: distinct names (binary
// ones included) and one name under two tables are different locks.
TEST_P(SqlSession, NamesAndTablesAreDistinctKeys) {
  const std::vector<std::string> names{"n",
                                       std::string(1024, 'x'),
                                       std::string("\0", 1),
                                       std::string("\0\0", 2),
                                       "\xff\xfe\x80 not UTF-8",
                                       "'; SELECT RELEASE_ALL_LOCKS(); --"};
  std::vector<std::unique_ptr<dlock::sql::SessionLock>> held;
  for (const std::string& name : names) {
    held.push_back(session_lock(name));
    ASSERT_TRUE(held.back()->try_acquire()) << name.size() << " bytes";
  }
  for (const std::string& name : names) {
    EXPECT_FALSE(session_lock(name)->try_acquire()) << name.size() << " bytes";
  }
  auto other_table = session_lock("n", "other_locks");
  EXPECT_TRUE(other_table->try_acquire());
  other_table->release();
  for (auto& lock : held) lock->release();
  EXPECT_THROW(session_lock(""), dlock::InvalidArgument);
  EXPECT_THROW(session_lock(std::string(1025, 'x')), dlock::InvalidArgument);
}

#if DLOCK_SQL_WITH_POSTGRESQL
// PostgreSQL waiters wake on the release's NOTIFY (pg_listener): a waiter that
// watches waits for a notification or the holder's lease end (30 s here), never
// polls, so each hand-off within milliseconds shows the NOTIFY arrived; and when
// the listening connection is ended the listener reconnects, listens again and
// the waiter still gets the release, not only the holder's lease end.
class SqlWakePg : public ::testing::Test {
 protected:
  void SetUp() override {
    auto connection = connect();
    dlock::sql::ensure_schema(*connection, *dialect_);
  }
  std::unique_ptr<SqlConnection> connect() { return dlock::sql::connect(url_); }

  PgServer server_;
  dlock::sql::SqlUrl url_ = dlock::sql::parse_sql_url(server_.url());
  std::unique_ptr<LeaseDialect> dialect_ =
      dlock::sql::lease_dialect(dlock::sql::SqlDialect::postgresql, "dlock_locks");
};

// Holds `name` as `holder` for `hold`, releases, and returns how long after
// the release the waiter (already waiting with `listener`) was granted.
milliseconds hand_off(
    SqlConnection& holder_connection, SqlConnection& waiter_connection, const LeaseDialect& dialect,
    dlock::sql::PgListener& listener, const std::string& name, milliseconds hold,
    const std::function<void()>& during_hold = [] {}) {
  LeaseLock holder(holder_connection, dialect, name, owner_of(kClient, 1));
  if (!holder.try_acquire(seconds(30)).granted) throw std::runtime_error("holder not granted");
  std::atomic<std::int64_t> granted_ns{0};
  std::thread waiter([&] {
    LeaseLock lock(waiter_connection, dialect, name, owner_of(kOtherClient, 1));
    if (lock.acquire(seconds(30), seconds(20), &listener)) {
      granted_ns = monotonic_ns();
      lock.release();
    }
  });
  std::this_thread::sleep_for(hold / 2);
  during_hold();
  std::this_thread::sleep_for(hold / 2);
  const std::int64_t released_ns = monotonic_ns();
  holder.release();
  waiter.join();
  if (granted_ns == 0) throw std::runtime_error("the waiter was not granted");
  return milliseconds(ms_between(released_ns, granted_ns));
}

TEST_F(SqlWakePg, ReleaseNotifiesTheWaiterWithinMilliseconds) {
  auto holder = connect();
  auto waiter = connect();
  dlock::sql::PgListener listener(url_);
  for (int trial = 0; trial < 5; ++trial) {
    const milliseconds latency = hand_off(*holder, *waiter, *dialect_, listener, "wake", milliseconds(700));
    EXPECT_LT(latency, milliseconds(250)) << "trial " << trial;
  }
}

TEST_F(SqlWakePg, ListenerConnectionEndedStillWakesTheWaiter) {
  auto holder = connect();
  auto waiter = connect();
  dlock::sql::PgListener listener(url_);
  const std::uint64_t listening = listener.session_id();
  const milliseconds latency =
      hand_off(*holder, *waiter, *dialect_, listener, "wake-reconnect", milliseconds(1400),
               [&] { ASSERT_TRUE(server_.terminate_backend(static_cast<int>(listening))); });
  EXPECT_LT(latency, milliseconds(1000));
  EXPECT_NE(listener.session_id(), listening);
}
#endif

INSTANTIATE_TEST_SUITE_P(Servers, SqlLock, ::testing::ValuesIn(built_sql_servers()), sql_server_name);
INSTANTIATE_TEST_SUITE_P(Servers, SqlSession, ::testing::ValuesIn(built_sql_servers()), sql_server_name);

}  // namespace
}  // namespace dlock_test
