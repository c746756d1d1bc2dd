// A client opened on postgresql:// or mysql:// through the C ABI: the lock
// calls every binding uses, served by the SQL backend in lease mode on
// dlock's lock table and on ShedLock's, each case against PostgreSQL 15 and
// MariaDB 10.11 started for it on a claimed loopback port.
#include <dlock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <ostream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/async_completion.hpp"
#include "support/background_acquire.hpp"
#include "support/child_process.hpp"
#include "support/dlock_handles.hpp"
#include "support/fenced_store.hpp"
#include "support/forked_child.hpp"
#include "support/lost_recorder.hpp"
#include "support/monotonic_clock.hpp"
#include "support/observed_leaders.hpp"
#include "support/redis_server.hpp"  // pick_free_port
#include "support/safety_checker.hpp"
#include "support/section_log.hpp"
#include "support/sql_test_params.hpp"
#include "support/sql_test_server.hpp"
#include "support/temp_dir.hpp"
#include "support/wait_until.hpp"
#include "support/worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// A server, the table the client's URL names, and its mode (lease, or session).
struct SqlClientCase {
  SqlServerKind server;
  bool shedlock;
  bool session_mode = false;
};

const char* layout_name(const SqlClientCase& c) {
  return c.session_mode ? "session_mode" : c.shedlock ? "shedlock" : "lock_table";
}

// How CTest's test names show the parameter.
void PrintTo(const SqlClientCase& c, std::ostream* out) {
  *out << kind_name(c.server) << " " << layout_name(c);
}

std::string case_name(const ::testing::TestParamInfo<SqlClientCase>& info) {
  return std::string(kind_name(info.param.server)) + "_" + layout_name(info.param);
}

std::vector<SqlClientCase> built_cases() {
  std::vector<SqlClientCase> cases;
  for (const SqlServerKind kind : built_sql_servers()) {
    cases.push_back({kind, false});
    cases.push_back({kind, true});
  }
  return cases;
}

int64_t elapsed_ms(int64_t from_ns, int64_t to_ns) {
  return (to_ns - from_ns) / 1000000;
}

class SqlClient : public ::testing::TestWithParam<SqlClientCase> {
 protected:
  void SetUp() override { server_ = start_sql_server(GetParam().server); }

  void TearDown() override {
    for (dlock_lock* handle : locks_) dlock_lock_free(handle);
    for (dlock_client* client : clients_) dlock_client_close(client);
  }

  bool postgresql() const { return GetParam().server == SqlServerKind::postgresql; }
  const char* scheme() const { return postgresql() ? "postgresql" : "mysql"; }
  const char* table() const { return GetParam().shedlock ? "shedlock" : "dlock_locks"; }
  std::string url() const {
    return server_->url(GetParam().session_mode ? "mode=session"
                        : GetParam().shedlock   ? "table=shedlock"
                                                : "");
  }

  // A client with the watchdog's lease `watchdog_ms` (0: the default).
  dlock_client* open(int64_t watchdog_ms = 0) {
    dlock_client_options options;
    dlock_client_options_init(&options);
    if (watchdog_ms > 0) options.watchdog_timeout_ms = watchdog_ms;
    dlock_client* client = nullptr;
    EXPECT_EQ(dlock_client_open(url().c_str(), &options, &client), DLOCK_OK) << dlock_last_error();
    if (client != nullptr) clients_.push_back(client);
    return client;
  }
  // Takes `handle` at once, with a token above `previous`, and lets it go.
  static void expect_granted_above(dlock_lock* handle, uint64_t previous) {
    uint64_t token = 0;
    ASSERT_EQ(dlock_lock_acquire(handle, 0, -1, &token), DLOCK_OK) << dlock_last_error();
    EXPECT_GT(token, previous);
    EXPECT_EQ(dlock_lock_release(handle), DLOCK_OK) << dlock_last_error();
  }

  dlock_lock* lock(dlock_client* client, const std::string& name) {
    dlock_lock* handle = nullptr;
    EXPECT_EQ(dlock_lock_new(client, name.c_str(), &handle), DLOCK_OK) << dlock_last_error();
    if (handle != nullptr) locks_.push_back(handle);
    return handle;
  }
  static uint64_t reentries(dlock_client* client) {
    dlock_client_stats stats{};
    stats.size = sizeof(stats);
    EXPECT_EQ(dlock_client_stats_get(client, &stats), DLOCK_OK);
    return stats.reentries;
  }

  // Ends every live lease of the table by the server's clock, behind its holders' backs.
  void end_leases_by_hand() {
    const std::string column = GetParam().shedlock ? "lock_until" : "lease_until";
    const std::string past =
        postgresql() ? "clock_timestamp() - interval '1 second'" : "UTC_TIMESTAMP(6) - INTERVAL 1 SECOND";
    server_->query("UPDATE " + std::string(table()) + " SET " + column + " = " + past);
  }

  // Two clients of two threads each take "contended" in turn, writing to a
  // fenced store in each section; the checker finds no overlap.
  void expect_contenders_never_hold_together() {
    constexpr int clients = 2;
    constexpr int threads = 2;
    constexpr int cycles = 15;
    TempDir dir;
    const FencedStore store(dir.file("store"));
    const std::string sections_path = dir.file("sections");
    std::atomic<int> failures{0};
    {
      SectionLog log(sections_path);
      std::vector<std::thread> workers;
      for (int c = 0; c < clients; ++c) {
        dlock_client* client = open();
        ASSERT_NE(client, nullptr);
        for (int t = 0; t < threads; ++t) {
          workers.emplace_back([&, client, c, t] {
            dlock_lock* handle = nullptr;
            if (dlock_lock_new(client, "contended", &handle) != DLOCK_OK) {
              ++failures;
              return;
            }
            for (int i = 0; i < cycles; ++i) {
              uint64_t token = 0;
              if (dlock_lock_acquire(handle, 30000, -1, &token) != DLOCK_OK) {
                ++failures;
                break;
              }
              Section section;
              section.token = token;
              section.owner = std::to_string(c) + "." + std::to_string(t);
              section.start_ns = monotonic_ns();
              const long long value = store.read();
              std::this_thread::sleep_for(milliseconds(3));
              section.write_accepted = store.write(token, value + 1);
              section.end_ns = monotonic_ns();
              log.append(section);
              section.release_status = dlock_lock_release(handle);
              if (section.release_status != DLOCK_OK) ++failures;
            }
            dlock_lock_free(handle);
          });
        }
      }
      for (std::thread& worker : workers) worker.join();
    }
    ASSERT_EQ(failures.load(), 0);
    const SafetyReport report = check_sections(SectionLog::read(sections_path));
    EXPECT_TRUE(report.clean()) << report.summary();
    EXPECT_EQ(report.sections, static_cast<std::size_t>(clients * threads * cycles));
    EXPECT_EQ(store.state().stale_rejections, 0);
    EXPECT_EQ(store.read(), clients * threads * cycles);
  }

  std::unique_ptr<SqlTestServer> server_;
  std::vector<dlock_client*> clients_;
  std::vector<dlock_lock*> locks_;
};

TEST_P(SqlClient, OpensAndNamesItsBackend) {
  dlock_client* client = open();
  ASSERT_NE(client, nullptr);
  EXPECT_STREQ(dlock_client_backend(client), scheme());
  if (!postgresql()) return;
  // libpq's other name for the scheme opens the same backend.
  std::string alias = url();
  alias.replace(0, std::string("postgresql").size(), "postgres");
  dlock_client* other = nullptr;
  ASSERT_EQ(dlock_client_open(alias.c_str(), nullptr, &other), DLOCK_OK) << dlock_last_error();
  EXPECT_STREQ(dlock_client_backend(other), "postgresql");
  dlock_client_close(other);
}

// dlock_schema's script (dlock schema), run by the server's own client on a
// fresh server, makes the table a client then locks on.
TEST_P(SqlClient, TheSchemaItPrintsMakesTheTableTheClientLocksOn) {
  char* script = nullptr;
  ASSERT_EQ(dlock_schema(url().c_str(), &script), DLOCK_OK) << dlock_last_error();
  const std::string statements(script);
  dlock_schema_free(script);
  server_->query(statements);
  EXPECT_EQ(server_->query("SELECT count(*) FROM " + std::string(table())), "0");
  dlock_lock* handle = lock(open(), "schema-made");
  ASSERT_NE(handle, nullptr);
  ASSERT_EQ(dlock_lock_acquire(handle, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(server_->query("SELECT count(*) FROM " + std::string(table())), "1");
  EXPECT_EQ(dlock_lock_release(handle), DLOCK_OK);
}

TEST_P(SqlClient, ALockIsReenteredWithoutARoundTripRefusedToOthersAndFenced) {
  dlock_client* a = open();
  dlock_client* b = open();
  dlock_lock* mine = lock(a, "report");
  dlock_lock* theirs = lock(b, "report");
  uint64_t first = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &first), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(first, 0u);
  // Re-entry: the same token, counted as a re-entry (no statement sent).
  uint64_t again = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &again), DLOCK_OK);
  EXPECT_EQ(again, first);
  EXPECT_EQ(reentries(a), 1u);
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  EXPECT_EQ(dlock_lock_acquire(theirs, 200, -1, nullptr), DLOCK_NOT_ACQUIRED);
  // Two releases for two acquires: the first keeps it held.
  ASSERT_EQ(dlock_lock_release(mine), DLOCK_OK);
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  ASSERT_EQ(dlock_lock_release(mine), DLOCK_OK) << dlock_last_error();
  uint64_t next = 0;
  ASSERT_EQ(dlock_lock_acquire(theirs, 0, -1, &next), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(next, first);
  EXPECT_EQ(dlock_lock_release(theirs), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_release(theirs), DLOCK_E_NOT_OWNER);
  expect_granted_above(mine, next);  // and back: the tokens keep rising
}

// A hold released keeping the name (what `dlock run --hold-after-success`
// does): nobody is granted it until the keep ends (from now, on both tables),
// then the next grant comes with a larger token; the keeper no longer renews it.
TEST_P(SqlClient, AHoldReleasedKeepingTheNameRefusesOthersUntilTheKeepEnds) {
  dlock_lock* mine = lock(open(), "kept");
  dlock_lock* theirs = lock(open(), "kept");
  uint64_t first = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &first), DLOCK_OK) << dlock_last_error();
  const auto kept_at = std::chrono::steady_clock::now();
  ASSERT_EQ(dlock_lock_release_keeping(mine, 2000), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_release(mine), DLOCK_E_NOT_OWNER) << "a kept hold is no longer the caller's";
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  int64_t ttl = 0;
  ASSERT_EQ(dlock_lock_ttl(theirs, &ttl), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 2000);
  uint64_t next = 0;
  ASSERT_EQ(dlock_lock_acquire(theirs, 10000, -1, &next), DLOCK_OK) << dlock_last_error();
  EXPECT_GE(std::chrono::steady_clock::now() - kept_at, milliseconds(1500))
      << "granted before the keep ended";
  EXPECT_GT(next, first);
  EXPECT_EQ(dlock_lock_release(theirs), DLOCK_OK);
}

// A MultiLock of two SQL locks: refused whole while another client holds a
// member (the other member left free), and a waiting group is let in once
// that member is released.
TEST_P(SqlClient, AMultiLockOfSqlLocksIsAllOrNone) {
  dlock_client* client = open();
  dlock_lock* members[] = {lock(client, "group-a"), lock(client, "group-b")};
  dlock_multilock* group = nullptr;
  ASSERT_EQ(dlock_multilock_new(members, 2, &group), DLOCK_OK) << dlock_last_error();
  dlock_lock* blocker = lock(open(), "group-b");
  ASSERT_EQ(dlock_lock_acquire(blocker, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_multilock_acquire(group, 0, -1), DLOCK_NOT_ACQUIRED);
  int locked = -1;
  ASSERT_EQ(dlock_lock_is_locked(members[0], &locked), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(locked, 0) << "a refused group left a member held";
  std::atomic<int> status{1000};
  std::thread waiting([&] {
    status = dlock_multilock_acquire(group, 10000, -1);
    if (status != DLOCK_OK) return;
    int both = 0;
    EXPECT_EQ(dlock_lock_is_locked(members[0], &both), DLOCK_OK);
    EXPECT_EQ(both, 1);
    EXPECT_EQ(dlock_multilock_release(group), DLOCK_OK);  // by its owner, this thread
  });
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(status.load(), 1000) << "granted while a member was held";
  ASSERT_EQ(dlock_lock_release(blocker), DLOCK_OK);
  waiting.join();
  EXPECT_EQ(status.load(), DLOCK_OK) << dlock_last_error();
  dlock_multilock_free(group);
}

// PostgreSQL's lock table: woken by NOTIFY, well within a second. MySQL and
// ShedLock's table: by the back-off, whose pause is at most 600 ms (500 ms
// and its jitter); two seconds leave room for a loaded machine.
TEST_P(SqlClient, AWaiterInAnotherClientIsGrantedSoonAfterTheRelease) {
  dlock_lock* holder = lock(open(), "handoff");
  dlock_lock* waiter = lock(open(), "handoff");
  uint64_t held = 0;
  ASSERT_EQ(dlock_lock_acquire(holder, 0, -1, &held), DLOCK_OK) << dlock_last_error();
  auto waiting = acquire_in_background(waiter, 1, 20000, -1);
  // Long enough for the back-off to reach its ceiling.
  std::this_thread::sleep_for(milliseconds(3000));
  ASSERT_EQ(waiting.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while held";
  const int64_t released_ns = monotonic_ns();
  ASSERT_EQ(dlock_lock_release(holder), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(waiting.wait_for(milliseconds(10000)), std::future_status::ready);
  const AcquireOutcome outcome = waiting.get();
  ASSERT_EQ(outcome.status, DLOCK_OK) << dlock_last_error();
  EXPECT_GT(outcome.token, held);
  EXPECT_EQ(outcome.release_status, DLOCK_OK);
  const bool notified = postgresql() && !GetParam().shedlock;
  EXPECT_LT(elapsed_ms(released_ns, outcome.returned_ns), notified ? 500 : 2000);
}

// An asynchronous acquire waits on the client's async runner, on the same
// engine: no thread of its own, completed once the holder releases.
TEST_P(SqlClient, AnAsynchronousWaiterIsCompletedAfterTheRelease) {
  dlock_lock* holder = lock(open(), "async");
  dlock_lock* waiter = lock(open(), "async");
  uint64_t held = 0;
  ASSERT_EQ(dlock_lock_acquire(holder, 0, -1, &held), DLOCK_OK) << dlock_last_error();
  Completion completion;
  std::future<Outcome> done = completion.future();
  ASSERT_EQ(dlock_lock_acquire_async(waiter, 7, 20000, -1, nullptr, Completion::on_done, &completion),
            DLOCK_OK)
      << dlock_last_error();
  std::this_thread::sleep_for(milliseconds(1000));
  ASSERT_EQ(done.wait_for(milliseconds(0)), std::future_status::timeout) << "completed while held";
  ASSERT_EQ(dlock_lock_release(holder), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(done.wait_for(milliseconds(10000)), std::future_status::ready);
  const Outcome outcome = done.get();
  ASSERT_EQ(outcome.status, DLOCK_OK) << outcome.message;
  EXPECT_GT(outcome.token, held);
  EXPECT_EQ(completion.calls(), 1);
  EXPECT_EQ(dlock_lock_release_owner(waiter, 7), DLOCK_OK) << dlock_last_error();
}

// A holder process killed with SIGKILL releases nothing: its row stays
// locked until its lease ends by the server's clock (the worker's watchdog
// lease is 2 s, renewed every third of it), then the waiter is granted with a
// larger token.
TEST_P(SqlClient, AKilledHoldersRowIsFreeAfterItsLease) {
  constexpr int64_t lease_ms = 2000;
  TempDir dir;
  const auto holder = start_hold_worker({url(),
                                         "killed",
                                         dir.file("store"),
                                         "",
                                         "",
                                         60000,
                                         {"--watchdog-timeout-ms", std::to_string(lease_ms)}},
                                        dir.file("holder.out"));
  const uint64_t holder_token = wait_until_acquired(dir.file("holder.out"));
  dlock_lock* waiting = lock(open(), "killed");
  auto waiter = acquire_in_background(waiting, 2, 30000, -1);
  std::this_thread::sleep_for(milliseconds(2 * lease_ms));
  ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while renewed";
  const int64_t killed_ns = monotonic_ns();
  holder->kill_and_reap();
  ASSERT_EQ(waiter.wait_for(milliseconds(lease_ms + 10000)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  ASSERT_EQ(outcome.status, DLOCK_OK) << dlock_last_error();
  EXPECT_GT(outcome.token, holder_token);
  // Not before the lease left at the kill (at least two thirds of it, less slack) ran out.
  EXPECT_GE(elapsed_ms(killed_ns, outcome.returned_ns), lease_ms * 2 / 3 - 300);
}

// The keeper renews every third of the watchdog's lease: a row whose lease
// was ended by hand is found not renewed at the next period, told through the
// lost callback, and its release says so.
TEST_P(SqlClient, ALeaseEndedBehindTheHoldersBackIsReportedLost) {
  dlock_lock* handle = lock(open(1500), "lost");
  LostRecorder lost;
  ASSERT_EQ(lost.attach(handle), DLOCK_OK);
  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire(handle, 0, -1, &token), DLOCK_OK) << dlock_last_error();
  // Renewed past its first lease while nobody interferes.
  std::this_thread::sleep_for(milliseconds(2000));
  ASSERT_EQ(lost.calls(), 0);
  end_leases_by_hand();
  EXPECT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(5000)));
  EXPECT_EQ(lost.calls(), 1);
  EXPECT_EQ(lost.last_token(), token);
  EXPECT_EQ(dlock_lock_release(handle), DLOCK_E_LOST);
}

// A fixed lease is the row's own, by the server's clock: it ends without a
// release, and is_locked and ttl read it there; extend sets what is left of it.
TEST_P(SqlClient, AFixedLeaseIsExtendedAndEndsOnItsOwn) {
  dlock_client* client = open();
  dlock_lock* handle = lock(client, "fixed");
  dlock_lock* other = lock(open(), "fixed");
  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire(handle, 0, 1500, &token), DLOCK_OK) << dlock_last_error();
  int locked = 0;
  ASSERT_EQ(dlock_lock_is_locked(other, &locked), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(locked, 1);
  int64_t ttl = 0;
  ASSERT_EQ(dlock_lock_ttl(other, &ttl), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 1500);
  EXPECT_EQ(dlock_lock_acquire(other, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  // Extended to 4 s: still held past the first lease's end.
  ASSERT_EQ(dlock_lock_extend(handle, 4000), DLOCK_OK) << dlock_last_error();
  std::this_thread::sleep_for(milliseconds(2000));
  EXPECT_EQ(dlock_lock_acquire(other, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  ASSERT_EQ(dlock_lock_ttl(other, &ttl), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 2100);
  // Granted to the other client once the lease ran out, nobody releasing it.
  uint64_t next = 0;
  ASSERT_EQ(dlock_lock_acquire(other, 10000, -1, &next), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(next, token);
  EXPECT_EQ(dlock_lock_release(other), DLOCK_OK);
  EXPECT_EQ(dlock_lock_ttl(other, &ttl), DLOCK_OK);
  EXPECT_EQ(ttl, -2);
}

// What `dlock status` and `dlock list` read: the row's holder and lease while
// it is live, its token after the release too; only live rows are listed. A
// forced release ends the lease whoever holds it: the holder is told it lost
// the lock, and a waiter is granted.
TEST_P(SqlClient, InspectionListingAndAForcedReleaseReadAndEndTheRow) {
  dlock_client* holder_client = open(1500);
  dlock_lock* held = lock(holder_client, "inspected");
  dlock_lock* admin = lock(open(), "inspected");
  LostRecorder lost;
  ASSERT_EQ(lost.attach(held), DLOCK_OK);
  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire(held, 0, -1, &token), DLOCK_OK) << dlock_last_error();
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* holders = nullptr;
  ASSERT_EQ(dlock_lock_inspect(admin, &info, &holders), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(info.holder_count, 1u);
  const char* id = nullptr;
  int64_t count = 0;
  ASSERT_EQ(dlock_lock_holders_get(holders, 0, &id, nullptr, &count), DLOCK_OK);
  // <client-uuid>:<owner>, as on Redis (on ShedLock's table: locked_by less this host's prefix).
  EXPECT_GT(std::string(id).find(':'), 35u) << id;
  EXPECT_NE(std::string(id).find(':'), std::string::npos) << id;
  EXPECT_EQ(count, 1);
  dlock_lock_holders_free(holders);
  EXPECT_GT(info.ttl_ms, 0);
  EXPECT_LE(info.ttl_ms, 1500);
  if (GetParam().shedlock) {
    EXPECT_EQ(info.has_last_token, 0) << "ShedLock's table keeps no token";
  } else {
    EXPECT_EQ(info.has_last_token, 1);
    EXPECT_EQ(info.last_token, token);
  }

  std::vector<std::string> names;
  const auto collect = [](const char* name, size_t len, void* out) {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name, len);
    return 0;
  };
  ASSERT_EQ(dlock_lock_list(holder_client, "insp", collect, &names), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(names, std::vector<std::string>{"inspected"});
  names.clear();
  ASSERT_EQ(dlock_lock_list(holder_client, "other", collect, &names), DLOCK_OK);
  EXPECT_TRUE(names.empty());

  int released = 0;
  ASSERT_EQ(dlock_lock_force_release_checked(admin, &released), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(released, 1);
  EXPECT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(5000))) << "the holder was not told";
  EXPECT_EQ(dlock_lock_release(held), DLOCK_E_LOST);
  ASSERT_EQ(dlock_lock_force_release_checked(admin, &released), DLOCK_OK);
  EXPECT_EQ(released, 0) << "nothing held";

  dlock_lock_info_init(&info);
  ASSERT_EQ(dlock_lock_inspect(admin, &info, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(info.holder_count, 0u);
  EXPECT_EQ(info.ttl_ms, -2);
  EXPECT_EQ(info.has_last_token, GetParam().shedlock ? 0 : 1) << "the row keeps its token";
  names.clear();
  ASSERT_EQ(dlock_lock_list(holder_client, "", collect, &names), DLOCK_OK);
  EXPECT_TRUE(std::find(names.begin(), names.end(), "inspected") == names.end()) << "an ended row is listed";
  expect_granted_above(admin, token);
}

// The holder's note (what `dlock status` shows: host, pid) is kept in its
// row, read by any client with the id of the hold that wrote it; only a
// holder writes one. ShedLock's table has no column for it: refused naming
// the backend.
TEST_P(SqlClient, AHoldersNoteIsKeptInItsRowAndReadByAnotherClient) {
  dlock_lock* held = lock(open(), "noted");
  dlock_lock* reader = lock(open(), "noted");
  const uint64_t owner = dlock_thread_owner();
  if (GetParam().shedlock) {
    ASSERT_EQ(dlock_lock_acquire(held, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
    EXPECT_EQ(dlock_lock_note_holder(held, owner, "host=web1 pid=42"), DLOCK_E_UNSUPPORTED);
    EXPECT_NE(std::string(dlock_last_error()).find(scheme()), std::string::npos) << dlock_last_error();
    EXPECT_EQ(dlock_lock_release(held), DLOCK_OK) << "the refused note touched the hold";
    return;
  }
  EXPECT_EQ(dlock_lock_note_holder(held, owner, "host=web1 pid=42"), DLOCK_E_NOT_OWNER);
  char* holder = nullptr;
  char* note = nullptr;
  ASSERT_EQ(dlock_lock_read_holder_note(reader, &holder, &note), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(note, nullptr) << "nothing was noted yet";
  ASSERT_EQ(dlock_lock_acquire(held, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(dlock_lock_note_holder(held, owner, "host=web1 pid=42"), DLOCK_OK) << dlock_last_error();
  ASSERT_EQ(dlock_lock_read_holder_note(reader, &holder, &note), DLOCK_OK) << dlock_last_error();
  ASSERT_NE(note, nullptr);
  EXPECT_STREQ(note, "host=web1 pid=42");
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* holders = nullptr;
  ASSERT_EQ(dlock_lock_inspect(reader, &info, &holders), DLOCK_OK) << dlock_last_error();
  const char* id = nullptr;
  ASSERT_EQ(dlock_lock_holders_get(holders, 0, &id, nullptr, nullptr), DLOCK_OK);
  EXPECT_STREQ(holder, id) << "the note names the hold that wrote it";
  dlock_lock_holders_free(holders);
  dlock_lock_holder_note_free(holder);
  dlock_lock_holder_note_free(note);
  EXPECT_EQ(dlock_lock_release(held), DLOCK_OK);
}

// A client opened before fork() works in the child on a session (connections,
// listener) of its own, and leaves the parent's connections, and so its hold,
// alone.
TEST_P(SqlClient, AForkedChildUsesTheClientOnItsOwnSession) {
#ifdef __SANITIZE_THREAD__
  GTEST_SKIP() << "TSan cannot follow threads started in a child of a multithreaded fork";
#endif
#ifdef __SANITIZE_ADDRESS__
  // Under ASan the child hung about 1 run in 3 on PostgreSQL, inside ASan's
  // own allocator: each of the child's threads waited on a size class's
  // mutex (SizeClassAllocator64::GetFromAllocator) that another thread of the
  // parent held at the fork. GCC 12's ASan runtime does not take its
  // allocator's locks around fork(), as glibc's malloc does for its arenas, so
  // any allocation in the child of a process with busy threads can hang; the
  // plain build runs this test.
  GTEST_SKIP() << "ASan's allocator is not fork-safe in a multithreaded parent (GCC 12)";
#endif
  dlock_client* client = open();
  dlock_lock* parents = lock(client, "fork-parent");
  dlock_lock* other = lock(open(), "fork-parent");
  ASSERT_EQ(dlock_lock_acquire(parents, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_test::run_forked_child_checks(client, parents, "fork-child"), "");
  EXPECT_EQ(dlock_lock_acquire(other, 0, -1, nullptr), DLOCK_NOT_ACQUIRED)
      << "the child ended the parent's hold";
  EXPECT_EQ(dlock_lock_release(parents), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_acquire(other, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_release(other), DLOCK_OK);
}

TEST_P(SqlClient, AFairLockIsUnsupportedNamingTheBackend) {
  dlock_client* client = open();
  dlock_lock* fair = nullptr;
  int status = dlock_fair_lock_new(client, "fair", &fair);
  if (status == DLOCK_OK) {
    status = dlock_lock_acquire(fair, 0, -1, nullptr);
    dlock_lock_free(fair);
  }
  EXPECT_EQ(status, DLOCK_E_UNSUPPORTED);
  EXPECT_NE(std::string(dlock_last_error()).find(std::string("the ") + scheme() + " backend"),
            std::string::npos)
      << dlock_last_error();
  EXPECT_NE(std::string(dlock_last_error()).find("fair lock"), std::string::npos) << dlock_last_error();
}

// A read-only server (a replica, or a user whose transactions are
// read-only) refuses the grant: the caller sees the server's words, holds
// nothing, and the lock stays free for a client on the primary.
TEST_P(SqlClient, AReadOnlyServerRefusesTheGrantAndNothingIsHeld) {
  dlock_lock* writer = lock(open(), "replica");  // the schema, made by the superuser
  const std::string options = GetParam().shedlock ? "table=shedlock" : "";
  dlock_client* read_only = nullptr;
  ASSERT_EQ(dlock_client_open(server_->read_only_url(options).c_str(), nullptr, &read_only), DLOCK_OK)
      << dlock_last_error();
  dlock_lock* refused = nullptr;
  ASSERT_EQ(dlock_lock_new(read_only, "replica", &refused), DLOCK_OK);
  EXPECT_EQ(dlock_lock_acquire(refused, 0, -1, nullptr), DLOCK_E_PROTOCOL);
  EXPECT_NE(std::string(dlock_last_error()).find("read-only"), std::string::npos) << dlock_last_error();
  int held = 1;
  ASSERT_EQ(dlock_lock_is_held(refused, &held), DLOCK_OK);
  EXPECT_EQ(held, 0);
  EXPECT_EQ(dlock_lock_release(refused), DLOCK_E_NOT_OWNER);
  dlock_lock_free(refused);
  dlock_client_close(read_only);
  EXPECT_EQ(dlock_lock_acquire(writer, 0, -1, nullptr), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_lock_release(writer), DLOCK_OK);
}

// An election on SQL: the leadership is the lock table's row
// "dlock_election:<name>", its token the term; the grant records the value
// (dlock_leader) and proclaim replaces it; a follower's observer sees each
// leader and value in order; a resign hands over to the waiting candidate.
// ShedLock's table keeps no token: refused, naming the option.
TEST_P(SqlClient, AnElectionLeadsOneAtATimeRecordsItsValueAndIsObserved) {
  dlock_election* refused = nullptr;
  if (GetParam().shedlock) {
    EXPECT_EQ(dlock_election_new(open(), "leaders", &refused), DLOCK_E_UNSUPPORTED);
    EXPECT_EQ(refused, nullptr);
    EXPECT_NE(std::string(dlock_last_error()).find("table=shedlock"), std::string::npos) << dlock_last_error();
    return;
  }
  const ElectionHandle first = new_election(open(), "leaders");
  const ElectionHandle second = new_election(open(), "leaders");
  EXPECT_FALSE(leader_of(second.get()).has_value()) << "nobody has campaigned yet";
  uint64_t term = 0;
  ASSERT_EQ(dlock_election_campaign(first.get(), "host-a:1", 0, &term), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(dlock_election_campaign(second.get(), "host-b:2", 0, nullptr), DLOCK_NOT_ACQUIRED);
  std::optional<dlock_leader> seen = leader_of(second.get());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->term, term);
  EXPECT_EQ(leader_value(*seen), "host-a:1");
  const int64_t now_ms =
      std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LT(std::abs(seen->since_ms - now_ms), 60000) << "since, by the server's clock";

  ObservedLeaders observed;
  ASSERT_EQ(dlock_election_observe(second.get(), ObservedLeaders::on_leader, &observed), DLOCK_OK);
  ASSERT_TRUE(wait_until([&] { return observed.count() == 1; }, milliseconds(5000)));
  ASSERT_EQ(dlock_election_proclaim(first.get(), "serving on :8080"), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(leader_value(*leader_of(second.get())), "serving on :8080");
  EXPECT_EQ(leader_of(second.get())->term, term) << "proclaim changes the value, not the term";
  EXPECT_EQ(dlock_election_proclaim(second.get(), "usurper"), DLOCK_E_NOT_OWNER);
  ASSERT_TRUE(wait_until([&] { return observed.count() == 2; }, milliseconds(5000)));

  std::atomic<uint64_t> next{0};
  std::thread waiter([&] {
    uint64_t granted = 0;
    EXPECT_EQ(dlock_election_campaign(second.get(), "host-b:2", 10000, &granted), DLOCK_OK) << dlock_last_error();
    next = granted;
  });
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(next.load(), 0u) << "led while the first still led";
  ASSERT_EQ(dlock_election_resign(first.get()), DLOCK_OK);
  waiter.join();
  EXPECT_GT(next.load(), term);
  ASSERT_TRUE(wait_until([&] { return observed.count() == 3; }, milliseconds(5000)));
  const std::vector<std::pair<uint64_t, std::string>> expected{
      {term, "host-a:1"}, {term, "serving on :8080"}, {next.load(), "host-b:2"}};
  EXPECT_EQ(observed.seen(), expected);
  ASSERT_EQ(dlock_election_observe(second.get(), nullptr, nullptr), DLOCK_OK);
  ASSERT_EQ(dlock_election_resign(second.get()), DLOCK_OK);
  EXPECT_FALSE(leader_of(first.get()).has_value()) << "a resigned leader is nobody's";
}

// A leadership whose row's lease was ended (an operator's forced release of
// the row) is told through the lost callback; the term ends and the next
// campaign is granted a higher one.
TEST_P(SqlClient, ALostLeadershipIsToldAndEndsTheTerm) {
  if (GetParam().shedlock) GTEST_SKIP() << "no elections on ShedLock's table";
  const ElectionHandle leader = new_election(open(1500), "lost-leader");
  std::atomic<uint64_t> lost_term{0};
  ASSERT_EQ(dlock_election_set_lost_callback(
                leader.get(),
                [](const char*, uint64_t, uint64_t term, void* ctx) {
                  static_cast<std::atomic<uint64_t>*>(ctx)->store(term);
                },
                &lost_term),
            DLOCK_OK);
  uint64_t term = 0;
  ASSERT_EQ(dlock_election_campaign(leader.get(), "a", 0, &term), DLOCK_OK) << dlock_last_error();
  dlock_lock* row = lock(open(), "dlock_election:lost-leader");
  ASSERT_EQ(dlock_lock_force_release(row), DLOCK_OK) << dlock_last_error();
  ASSERT_TRUE(wait_until([&] { return lost_term.load() != 0; }, milliseconds(5000)));
  EXPECT_EQ(lost_term.load(), term);
  EXPECT_FALSE(leader_of(leader.get()).has_value());
  EXPECT_EQ(dlock_election_proclaim(leader.get(), "still me?"), DLOCK_E_LOST);
  uint64_t next = 0;
  EXPECT_EQ(dlock_election_campaign(leader.get(), "a again", 0, &next), DLOCK_OK) << dlock_last_error();
  EXPECT_GT(next, term);
}

// Candidates in processes of their own (tests/worker --mode election): the
// checker finds no two leaders' sections overlapping and terms rising.
TEST_P(SqlClient, CandidatesInProcessesNeverLeadTogether) {
  if (GetParam().shedlock) GTEST_SKIP() << "no elections on ShedLock's table";
  TempDir dir;
  std::vector<std::unique_ptr<ChildProcess>> candidates;
  for (int i = 0; i < 3; ++i) {
    candidates.push_back(start_worker({"--mode", "election", "--url", url(), "--name", "fleet", "--store",
                                       dir.file("store"), "--log", dir.file("sections"), "--cycles", "10",
                                       "--min-sleep-us", "2000", "--max-sleep-us", "2000"},
                                      dir.file("out" + std::to_string(i))));
  }
  for (auto& candidate : candidates) EXPECT_EQ(candidate->wait_for(milliseconds(60000)), 0);
  const SafetyReport report = check_sections(SectionLog::read(dir.file("sections")));
  EXPECT_EQ(report.sections, 30u);
  EXPECT_TRUE(report.clean()) << report.summary();
}

// A leader process killed with SIGKILL resigns nothing: it is still the
// leader while its row's lease lasts by the server's clock (the worker's
// watchdog lease is 2 s, renewed every third of it), then the waiting
// candidate leads with a higher term.
TEST_P(SqlClient, AKilledLeaderIsReplacedAfterItsLease) {
  if (GetParam().shedlock) GTEST_SKIP() << "no elections on ShedLock's table";
  constexpr int64_t lease_ms = 2000;
  TempDir dir;
  const std::string section_us = std::to_string(60LL * 1000 * 1000);
  const auto killed = start_worker(
      {"--mode", "election", "--url", url(), "--name", "killed-leader", "--store", dir.file("store"), "--log",
       dir.file("sections"), "--cycles", "1", "--min-sleep-us", section_us, "--max-sleep-us", section_us,
       "--announce", "1", "--watchdog-timeout-ms", std::to_string(lease_ms)},
      dir.file("out"));
  const std::optional<std::string> announced = wait_for_output(dir.file("out"), "term", milliseconds(10000));
  ASSERT_TRUE(announced.has_value()) << read_text_file(dir.file("out"));
  const uint64_t killed_term = std::stoull(*announced);  // "<term> leading"
  const ElectionHandle next = new_election(open(), "killed-leader");
  ASSERT_TRUE(leader_of(next.get()).has_value());
  EXPECT_EQ(leader_of(next.get())->term, killed_term);

  const int64_t killed_ns = monotonic_ns();
  killed->kill_and_reap();
  EXPECT_EQ(leader_of(next.get())->term, killed_term) << "its lease outlives it";
  uint64_t term = 0;
  ASSERT_EQ(dlock_election_campaign(next.get(), "next", lease_ms + 10000, &term), DLOCK_OK)
      << dlock_last_error();
  // Not before the lease left at the kill (at least two thirds of it, less slack) ran out.
  EXPECT_GE(elapsed_ms(killed_ns, monotonic_ns()), lease_ms * 2 / 3 - 300);
  EXPECT_GT(term, killed_term);
  const std::optional<dlock_leader> now = leader_of(next.get());
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->term, term);
  EXPECT_EQ(leader_value(*now), "next");
  EXPECT_EQ(dlock_election_resign(next.get()), DLOCK_OK);
}

// The leadership's row is "dlock_election:<name>" in the lock table, whose
// names are 1 to 1,024 bytes: an election name is 1 to 1,009.
TEST_P(SqlClient, AnElectionNameTheLockTableCannotHoldIsRefusedNamingIt) {
  if (GetParam().shedlock) GTEST_SKIP() << "no elections on ShedLock's table";
  dlock_client* client = open();
  for (const std::string& name : {std::string(), std::string(1010, 'e')}) {
    dlock_election* refused = nullptr;
    EXPECT_EQ(dlock_election_new(client, name.c_str(), &refused), DLOCK_E_INVALID) << name.size();
    EXPECT_EQ(refused, nullptr);
    const std::string error = dlock_last_error();
    EXPECT_NE(error.find("name: an election name is 1 to 1009 bytes"), std::string::npos) << error;
  }
  const ElectionHandle longest = new_election(client, std::string(1009, 'e'));
  uint64_t term = 0;
  ASSERT_EQ(dlock_election_campaign(longest.get(), "v", 0, &term), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(leader_of(longest.get())->term, term);
  EXPECT_EQ(dlock_election_resign(longest.get()), DLOCK_OK);
}

TEST_P(SqlClient, AClosedPortIsAConnectionError) {
  const std::string closed = std::string(scheme()) +
                             "://dlock@127.0.0.1:" + std::to_string(pick_free_port()) +
                             "/dlock?connect_timeout_ms=1000";
  dlock_client* client = nullptr;
  const auto start = Clock::now();
  EXPECT_EQ(dlock_client_open(closed.c_str(), nullptr, &client), DLOCK_E_CONNECTION) << dlock_last_error();
  EXPECT_EQ(client, nullptr);
  EXPECT_LT(Clock::now() - start, milliseconds(5000));
}

// Two clients of two threads each take turns on one name: no two sections of
// different owners intersect, tokens rise in grant order, and the fenced
// store refuses no write.
TEST_P(SqlClient, TwoClientsOfTwoThreadsNeverHoldTogether) {
  expect_contenders_never_hold_together();
}

INSTANTIATE_TEST_SUITE_P(Servers, SqlClient, ::testing::ValuesIn(built_cases()), case_name);

// mode=session (docs/sql.md): the hold is the server session's lock on a
// connection pinned for it, gone with that session.
class SqlSessionClient : public SqlClient {
 protected:
  // The server's id of the session holding `name`'s lock.
  std::string holding_session(const std::string& name) {
    return server_->query(
        postgresql()
            ? "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            : "SELECT IS_USED_LOCK(CONCAT('dlock:', SHA1(CONCAT(CAST('dlock_locks' AS BINARY), X'00', '" +
                  name + "'))))");
  }
};

std::vector<SqlClientCase> session_cases() {
  std::vector<SqlClientCase> cases;
  for (const SqlServerKind kind : built_sql_servers()) cases.push_back({kind, false, true});
  return cases;
}

TEST_P(SqlSessionClient, ALockIsReenteredRefusedToOthersFencedAndFreedAtTheRelease) {
  dlock_lock* mine = lock(open(), "session-report");
  dlock_lock* theirs = lock(open(), "session-report");
  uint64_t first = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &first), DLOCK_OK) << dlock_last_error();
  uint64_t again = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &again), DLOCK_OK) << dlock_last_error();
  EXPECT_EQ(again, first) << "a re-entry keeps its token";
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, -1, nullptr), DLOCK_NOT_ACQUIRED);
  EXPECT_EQ(dlock_lock_release(mine), DLOCK_OK);
  EXPECT_EQ(dlock_lock_acquire(theirs, 0, -1, nullptr), DLOCK_NOT_ACQUIRED) << "freed at the first release";
  EXPECT_EQ(dlock_lock_release(mine), DLOCK_OK);
  expect_granted_above(theirs, first);
  // No lease: lease_ms is refused, naming it.
  EXPECT_EQ(dlock_lock_acquire(mine, 0, 5000, nullptr), DLOCK_E_INVALID);
  EXPECT_NE(std::string(dlock_last_error()).find("lease_ms"), std::string::npos) << dlock_last_error();
}

TEST_P(SqlSessionClient, AWaiterIsGrantedSoonAfterTheRelease) {
  dlock_lock* mine = lock(open(), "session-wait");
  dlock_lock* theirs = lock(open(), "session-wait");
  uint64_t held = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &held), DLOCK_OK) << dlock_last_error();
  std::atomic<int64_t> granted_ns{0};
  uint64_t token = 0;
  std::thread waiter([&] {
    if (dlock_lock_acquire(theirs, 20000, -1, &token) == DLOCK_OK) granted_ns = monotonic_ns();
    dlock_lock_release(theirs);
  });
  std::this_thread::sleep_for(milliseconds(700));  // the waiter's backoff reaches its ceiling
  const int64_t released_ns = monotonic_ns();
  ASSERT_EQ(dlock_lock_release(mine), DLOCK_OK);
  waiter.join();
  ASSERT_NE(granted_ns.load(), 0) << "the waiter was not granted";
  EXPECT_GT(token, held);
  EXPECT_LT(elapsed_ms(released_ns, granted_ns.load()), 2000) << "backs off at most 500 ms between tries";
}

// The holder's session ended by the server: the name is free at once, the
// holder is told within its check period, and its release says so.
TEST_P(SqlSessionClient, AHoldersSessionEndedIsReportedLostAndTheNameIsFreeAtOnce) {
  dlock_lock* mine = lock(open(), "session-lost");
  dlock_lock* theirs = lock(open(), "session-lost");
  LostRecorder lost;
  ASSERT_EQ(lost.attach(mine), DLOCK_OK);
  uint64_t token = 0;
  ASSERT_EQ(dlock_lock_acquire(mine, 0, -1, &token), DLOCK_OK) << dlock_last_error();
  const std::string session = holding_session("session-lost");
  ASSERT_FALSE(session.empty()) << "no session holds the lock";
  server_->kill_session(std::stoull(session));
  EXPECT_TRUE(
      wait_until([&] { return dlock_lock_acquire(theirs, 0, -1, nullptr) == DLOCK_OK; }, milliseconds(5000)))
      << "the name was not freed with the session";
  EXPECT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(5000))) << "the holder was not told";
  EXPECT_EQ(lost.last_token(), token);
  EXPECT_EQ(dlock_lock_release(mine), DLOCK_E_LOST);
  EXPECT_EQ(dlock_lock_release(theirs), DLOCK_OK);
}

// An election needs the lease row's token as its term and the record beside
// it: refused in mode=session, naming the option.
TEST_P(SqlSessionClient, AnElectionIsRefusedNamingTheMode) {
  dlock_election* refused = nullptr;
  EXPECT_EQ(dlock_election_new(open(), "leaders", &refused), DLOCK_E_UNSUPPORTED);
  EXPECT_EQ(refused, nullptr);
  EXPECT_NE(std::string(dlock_last_error()).find("mode=session"), std::string::npos) << dlock_last_error();
}

TEST_P(SqlSessionClient, TwoClientsOfTwoThreadsNeverHoldTogether) {
  expect_contenders_never_hold_together();
}

INSTANTIATE_TEST_SUITE_P(Servers, SqlSessionClient, ::testing::ValuesIn(session_cases()), case_name);

}  // namespace
}  // namespace dlock_test
