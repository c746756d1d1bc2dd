// The leased-permit semaphore on the SQL backends in lease mode (dlock's
// semaphore tables), through the C ABI, each case against PostgreSQL 15 and
// MariaDB 10.11 started for it: permits set once, leases taken, released,
// waited for, lost and freed by a dead holder's lease end, and a checker over
// several processes' sections that never sees more than N at once; a take
// the server rolls back to break a deadlock is run again.
#include <dlock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_failure.hpp"
#include "support/dlock_handles.hpp"
#include "support/log_capture.hpp"
#include "support/monotonic_clock.hpp"
#include "support/permit_checker.hpp"
#include "support/section_log.hpp"
#include "support/semaphore_handles.hpp"
#include "support/sql_test_params.hpp"
#include "support/sql_test_server.hpp"
#include "support/status_assertions.hpp"
#include "support/temp_dir.hpp"
#include "support/text_file.hpp"
#include "support/wait_until.hpp"
#include "support/worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

constexpr const char* kName = "slots";
constexpr int64_t kLeaseMs = 2000;  // the watchdog's lease of the holders that die

class SqlPermitSemaphore : public ::testing::TestWithParam<SqlServerKind> {
 protected:
  void SetUp() override { server_ = start_sql_server(GetParam()); }

  bool postgresql() const { return GetParam() == SqlServerKind::postgresql; }
  ClientHandle open(int64_t watchdog_ms = 0) {
    dlock_client_options options;
    dlock_client_options_init(&options);
    if (watchdog_ms > 0) options.watchdog_timeout_ms = watchdog_ms;
    return open_client(server_->url(), options);
  }
  static void set_permits(dlock_permit_semaphore* semaphore, int permits, int expected_set) {
    int set = -1;
    ASSERT_EQ(dlock_permit_semaphore_try_set_permits(semaphore, permits, &set), DLOCK_OK)
        << dlock_last_error();
    EXPECT_EQ(set, expected_set);
  }
  static int64_t available(dlock_permit_semaphore* semaphore) {
    int64_t out = -1;
    EXPECT_EQ(dlock_permit_semaphore_available_permits(semaphore, &out), DLOCK_OK) << dlock_last_error();
    return out;
  }
  static int acquire(dlock_permit_semaphore* semaphore, int64_t wait_ms, int64_t lease_ms, char* id) {
    return dlock_permit_semaphore_acquire(semaphore, wait_ms, lease_ms, nullptr, id, DLOCK_PERMIT_ID_SIZE);
  }
  std::string live_leases() {
    const std::string now = postgresql() ? "clock_timestamp()" : "UTC_TIMESTAMP(6)";
    return server_->query("SELECT count(*) FROM dlock_semaphore_lease WHERE lease_until > " + now);
  }

  std::unique_ptr<SqlTestServer> server_;
  TempDir dir_;
};

TEST_P(SqlPermitSemaphore, PermitsAreSetOnceAndEachLeaseIsARowOfItsOwn) {
  const ClientHandle a = open();
  const ClientHandle b = open();
  const PermitSemaphoreHandle mine = new_permit_semaphore(a.get(), kName);
  const PermitSemaphoreHandle theirs = new_permit_semaphore(b.get(), kName);
  char first[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(status_is(acquire(mine.get(), 0, -1, first), DLOCK_E_INVALID)) << "no permits set yet";
  set_permits(mine.get(), 2, 1);
  set_permits(theirs.get(), 5, 0);
  EXPECT_EQ(server_->query("SELECT permits FROM dlock_semaphore"), "2");
  EXPECT_EQ(available(theirs.get()), 2);

  char second[DLOCK_PERMIT_ID_SIZE];
  char third[DLOCK_PERMIT_ID_SIZE];
  ASSERT_TRUE(status_is(acquire(mine.get(), 0, -1, first), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(theirs.get(), 0, 5000, second), DLOCK_OK)) << "a fixed lease is served";
  EXPECT_EQ(live_leases(), "2");
  EXPECT_EQ(available(mine.get()), 0);
  EXPECT_TRUE(status_is(acquire(theirs.get(), 0, -1, third), DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(theirs.get(), first), DLOCK_E_NOT_OWNER))
      << "only the client that took a permit releases it";

  // A waiter (its holders renewed by the watchdog, so only a release frees
  // one) is woken by the release, well before any lease could end.
  auto waiter = std::async(std::launch::async, [&] { return acquire(theirs.get(), 20000, -1, third); });
  ASSERT_EQ(waiter.wait_for(milliseconds(500)), std::future_status::timeout) << "granted with no permit free";
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_permit_semaphore_release(mine.get(), first), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(15000)), std::future_status::ready);
  EXPECT_TRUE(status_is(waiter.get(), DLOCK_OK));
  EXPECT_LT((monotonic_ns() - released_ns) / 1000000, 5000) << "the waiter was not woken by the release";

  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(mine.get(), first), DLOCK_E_NOT_OWNER));
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(theirs.get(), second), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(theirs.get(), third), DLOCK_OK));
  EXPECT_EQ(available(mine.get()), 2);
  EXPECT_EQ(live_leases(), "0");
}

TEST_P(SqlPermitSemaphore, BadInputIsRefusedNamingTheArgument) {
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  int set = 0;
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_try_set_permits(semaphore.get(), 0, &set), "permits"));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_try_set_permits(semaphore.get(), -3, &set), "permits"));
  dlock_permit_semaphore* raw = nullptr;
  EXPECT_TRUE(
      invalid_naming(dlock_permit_semaphore_new(client.get(), std::string(1025, 'n').c_str(), &raw), "name"));
  set_permits(semaphore.get(), 1, 1);
  char id[DLOCK_PERMIT_ID_SIZE];
  ASSERT_TRUE(status_is(acquire(semaphore.get(), 0, -1, id), DLOCK_OK));
  EXPECT_TRUE(invalid_naming(dlock_permit_semaphore_release(semaphore.get(), "abc"), "permit_id"));
  EXPECT_TRUE(invalid_naming(acquire(semaphore.get(), 0, 0, id), "lease_ms"));
  EXPECT_EQ(live_leases(), "1") << "bad input released the permit";
  EXPECT_EQ(available(semaphore.get()), 0);
}

TEST_P(SqlPermitSemaphore, ShedLocksTableServesNoneNamingTheBackendAndOption) {
  const ClientHandle client = open_client(server_->url("table=shedlock"));
  dlock_permit_semaphore* raw = nullptr;
  EXPECT_TRUE(status_is(dlock_permit_semaphore_new(client.get(), kName, &raw), DLOCK_E_UNSUPPORTED));
  const std::string message = dlock_last_error();
  EXPECT_NE(message.find(postgresql() ? "postgresql" : "mysql"), std::string::npos) << message;
  EXPECT_NE(message.find("table=shedlock"), std::string::npos) << message;
}

// The watchdog's renewal is the one that keeps a permit: its row ended by
// hand, the next renewal finds it gone, the holder hears of it once, its
// release says DLOCK_E_LOST, and the permit is free for another.
TEST_P(SqlPermitSemaphore, ALeaseEndedBehindItsHoldersBackIsReportedLost) {
  const ClientHandle client = open(1000);
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  PermitLostRecorder lost;
  lost.attach(semaphore.get());
  set_permits(semaphore.get(), 1, 1);
  char id[DLOCK_PERMIT_ID_SIZE];
  ASSERT_TRUE(status_is(acquire(semaphore.get(), 0, -1, id), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(1500));
  EXPECT_EQ(lost.calls(), 0) << "the watchdog did not keep the permit past its lease";
  server_->query(postgresql() ? "UPDATE dlock_semaphore_lease SET lease_until = clock_timestamp()"
                              : "UPDATE dlock_semaphore_lease SET lease_until = UTC_TIMESTAMP(6)");
  ASSERT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(10000))) << "no lost callback";
  EXPECT_EQ(lost.last_id(), id);
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), id), DLOCK_E_LOST));
  const ClientHandle other = open();
  char theirs[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(status_is(acquire(new_permit_semaphore(other.get(), kName).get(), 0, -1, theirs), DLOCK_OK));
  EXPECT_EQ(lost.calls(), 1);
}

TEST_P(SqlPermitSemaphore, AKilledHoldersPermitReturnsAtItsLeaseEnd) {
  const std::string output = dir_.file("holder.out");
  const auto holder = start_worker(
      {"--mode", "permit-hold", "--url", server_->url(), "--name", kName, "--permits", "1", "--lease-ms",
       "-1", "--watchdog-timeout-ms", std::to_string(kLeaseMs), "--hold-ms", "60000"},
      output);
  ASSERT_TRUE(wait_for_output(output, "acquired", milliseconds(20000)).has_value()) << "the holder took none";
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  char id[DLOCK_PERMIT_ID_SIZE];
  EXPECT_TRUE(status_is(acquire(semaphore.get(), 0, -1, id), DLOCK_NOT_ACQUIRED));
  holder->kill_and_reap();
  const int64_t killed_ns = monotonic_ns();
  EXPECT_TRUE(status_is(acquire(semaphore.get(), 20000, -1, id), DLOCK_OK));
  const int64_t waited_ms = (monotonic_ns() - killed_ns) / 1000000;
  EXPECT_LT(waited_ms, kLeaseMs + 3000) << "the dead holder's permit stayed taken past its lease";
  EXPECT_GE(waited_ms, kLeaseMs / 4) << "granted while the dead holder's lease still ran";
}

// The take locks the name's dlock_semaphore row, then waits to drop an ended
// lease that another transaction has changed; that one then asks for the
// name's row: a cycle. The take is the victim (PostgreSQL: it waited first,
// so its deadlock check runs first; MariaDB: it changed the fewest rows).
TEST_P(SqlPermitSemaphore, ATakeRolledBackToBreakADeadlockIsRunAgainAndGranted) {
  const LogCapture log;
  const ClientHandle client = open();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), kName);
  set_permits(semaphore.get(), 2, 1);
  const std::string hours_ago =
      postgresql() ? "clock_timestamp() - interval '1 hour'" : "UTC_TIMESTAMP(6) - INTERVAL 1 HOUR";
  const auto insert_lease = [&](const std::string& name, const std::string& owner, int token) {
    return "INSERT INTO dlock_semaphore_lease (name, owner, lease_until, token) VALUES ('" + name + "', '" +
           owner + "', " + hours_ago + ", " + std::to_string(token) + ")";
  };
  server_->query(insert_lease(kName, "gone", 0));

  const auto other = dlock::sql::connect(dlock::sql::parse_sql_url(server_->url()));
  other->execute("BEGIN");
  // Rows changed make this transaction the heavier one, which InnoDB spares.
  for (int token = 1; token <= 20; ++token) other->execute(insert_lease("padding", "pad", token));
  other->execute("UPDATE dlock_semaphore_lease SET note = 'busy' WHERE owner = 'gone'");

  char id[DLOCK_PERMIT_ID_SIZE];
  auto take = std::async(std::launch::async, [&] { return acquire(semaphore.get(), 0, -1, id); });
  const std::string lock_waits =
      postgresql() ? "SELECT count(*) FROM pg_locks WHERE NOT granted"
                   : "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'";
  const auto take_waits = [&] {
    // InnoDB answers INNODB_TRX from a cache it refreshes only when the
    // cache went unread for 0.1 s: a faster poll would see the first answer
    // (taken before the take waited) for ever.
    if (!postgresql()) std::this_thread::sleep_for(milliseconds(150));
    return server_->query(lock_waits) != "0";
  };
  ASSERT_TRUE(wait_until(take_waits, milliseconds(10000)))
      << "the take never waited for the ended lease";
  try {
    other->execute("SELECT 1 FROM dlock_semaphore WHERE name = '" + std::string(kName) + "' FOR UPDATE");
  } catch (const dlock::sql::RolledBackError& error) {
    FAIL() << "the server broke the deadlock the other way: " << error.what();
  }
  // The take's second run waits for this transaction's end.
  ASSERT_EQ(take.wait_for(milliseconds(300)), std::future_status::timeout) << "granted past a locked name";
  other->execute("COMMIT");

  ASSERT_EQ(take.wait_for(milliseconds(10000)), std::future_status::ready);
  EXPECT_TRUE(status_is(take.get(), DLOCK_OK)) << "the deadlock reached the caller";
  EXPECT_TRUE(log.has(DLOCK_LOG_DEBUG, {"eadlock", "the transaction is run again"})) << log.dump();
  EXPECT_EQ(live_leases(), "1");
  EXPECT_EQ(server_->query("SELECT count(*) FROM dlock_semaphore_lease WHERE owner = 'gone'"), "0")
      << "the ended lease stayed";
  EXPECT_TRUE(status_is(dlock_permit_semaphore_release(semaphore.get(), id), DLOCK_OK));
}

// N permits, several processes of several threads each: the checker never
// sees more than N sections open at once, and every permit is back at the end.
TEST_P(SqlPermitSemaphore, NoMoreThanNPermitsAreHeldAcrossProcesses) {
  constexpr int kPermits = 3;
  const std::string log = dir_.file("sections");
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (int i = 0; i < 4; ++i) {
    workers.push_back(start_worker({"--mode", "permits", "--url", server_->url(), "--name", kName,
                                    "--permits", std::to_string(kPermits), "--threads", "2", "--cycles", "15",
                                    "--log", log, "--min-sleep-us", "2000", "--max-sleep-us", "8000"},
                                   dir_.file("worker" + std::to_string(i) + ".out")));
  }
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const auto status = workers[i]->wait_for(milliseconds(120000));
    ASSERT_TRUE(status.has_value()) << "a worker did not finish";
    EXPECT_EQ(*status, 0) << describe_wait_status(*status) << ": "
                          << last_lines(dir_.file("worker" + std::to_string(i) + ".out"), 5);
  }
  const std::vector<Section> sections = SectionLog::read(log);
  EXPECT_EQ(sections.size(), 4u * 2 * 15);
  const int most = max_concurrent_sections(sections);
  EXPECT_LE(most, kPermits) << "more holders than permits at once";
  EXPECT_GE(most, 2) << "the permits were never held concurrently: the run proves nothing";
  const ClientHandle client = open();
  EXPECT_EQ(available(new_permit_semaphore(client.get(), kName).get()), kPermits);
}

INSTANTIATE_TEST_SUITE_P(Servers, SqlPermitSemaphore, ::testing::ValuesIn(built_sql_servers()),
                         sql_server_name);

}  // namespace
}  // namespace dlock_test
