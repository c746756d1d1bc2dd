// dlock's lock on ShedLock's table (`?table=shedlock`, docs/design/backends.md
// 3.6; src/backends/sql/shedlock_dialect.hpp) against real PostgreSQL 15 and
// MariaDB 10.11 servers started on claimed loopback ports: first dlock alone
// (grants, tokens, release that never deletes, the hold after success, names,
// renewal), then beside the real ShedLock 5.16 (tests/interop/shedlock_jdbc:
// JdbcTemplateLockProvider with usingDbTime(), built with mvn into the build
// directory), each side refusing the other's hold and both contending on one
// name, judged by the section log and the safety checker; last, a Spring
// service's @SchedulerLock job (SchedulerLockService, shedlock-spring) beside a
// cron'd fleet of `dlock run --hold-after-success`, judged by the job's log.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/lease_lock.hpp"
#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_schema.hpp"
#include "child_process.hpp"
#include "common/error.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "program_output.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "shedlock_jdbc_build.hpp"
#include "sql_test_params.hpp"
#include "sql_test_server.hpp"
#include "temp_dir.hpp"
#include "text_file.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using dlock::sql::LeaseAttempt;
using dlock::sql::LeaseDialect;
using dlock::sql::LeaseHold;
using dlock::sql::LeaseLock;
using dlock::sql::SqlConnection;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kClient = "7a2d3b9f-0000-4000-8000-00000000000a";
constexpr const char* kOtherClient = "7a2d3b9f-0000-4000-8000-00000000000b";
// ShedLockLoop's locked_by (withLockedByValue).
constexpr const char* kShedLockHolder = "shedlock-interop";

std::string owner_of(const char* client, int thread) {
  return std::string(client) + ":" + std::to_string(thread);
}

class ShedLockTable : public ::testing::TestWithParam<SqlServerKind> {
 public:
  void SetUp() override {
    server_ = start_sql_server(GetParam());
    url_ = dlock::sql::parse_sql_url(server_->url("table=shedlock"));
    dialect_ = dlock::sql::lease_dialect(url_.dialect, url_.table);
    auto connection = connect();
    dlock::sql::ensure_schema(*connection, *dialect_);
  }

  std::unique_ptr<SqlConnection> connect() { return dlock::sql::connect(url_); }
  const LeaseDialect& dialect() const { return *dialect_; }

  std::string query(const std::string& sql) { return server_->query(sql); }

 protected:
  std::unique_ptr<SqlTestServer> server_;
  dlock::sql::SqlUrl url_;
  std::unique_ptr<LeaseDialect> dialect_;
};

TEST(ShedLockUrl, TableShedlockPicksShedLocksLayout) {
  const dlock::sql::SqlUrl url = dlock::sql::parse_sql_url("postgresql://127.0.0.1/db?table=shedlock");
  EXPECT_EQ(url.table, "shedlock");
  const auto dialect = dlock::sql::lease_dialect(url.dialect, url.table);
  EXPECT_NE(dlock::sql::schema_script(*dialect).find("locked_by VARCHAR(255)"), std::string::npos);
  const auto lock_table = dlock::sql::lease_dialect(url.dialect, "dlock_locks");
  EXPECT_EQ(dlock::sql::schema_script(*lock_table).find("locked_by"), std::string::npos);
}

// The row is ShedLock's, with dlock's locked_by; a release ends lock_until
// and keeps the row (ShedLock never inserts a name twice); tokens rise.
TEST_P(ShedLockTable, GrantsRefusesReleasesAndNeverDeletesTheRow) {
  auto a = connect();
  auto b = connect();
  LeaseLock first(*a, *dialect_, "nightly-report", owner_of(kClient, 1));
  LeaseLock second(*b, *dialect_, "nightly-report", owner_of(kOtherClient, 1));
  const LeaseAttempt granted = first.try_acquire(seconds(10));
  ASSERT_TRUE(granted.granted);
  EXPECT_GT(granted.token, 0u);
  EXPECT_FALSE(granted.grant.empty());
  const std::string locked_by = query("SELECT locked_by FROM shedlock WHERE name = 'nightly-report'");
  EXPECT_NE(locked_by.find("/dlock/" + owner_of(kClient, 1)), std::string::npos) << locked_by;
  EXPECT_EQ(locked_by.rfind("/dlock/"), locked_by.size() - owner_of(kClient, 1).size() - 7) << locked_by;

  const LeaseAttempt refused = second.try_acquire(seconds(10));
  EXPECT_FALSE(refused.granted);
  EXPECT_EQ(refused.holder, owner_of(kClient, 1));
  EXPECT_GT(refused.holder_lease_left, seconds(8));
  EXPECT_LE(refused.holder_lease_left, seconds(10));

  first.release();
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
  EXPECT_FALSE(dialect_->lease_left(*b, "nightly-report").has_value());
  ASSERT_TRUE(second.try_acquire(seconds(10)).granted);
  EXPECT_GT(second.token(), granted.token);
  EXPECT_NE(second.grant(), first.grant());
  EXPECT_THROW(first.release(), dlock::NotOwnerError);
  second.release();
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
}

// `dlock run --hold-after-success`: ShedLock's unlock with lockAtLeastFor =
// the time since the grant + keep, so the name stays locked `keep` from the
// release, as on every table (dlock_lock_release_keeping), then anyone may take it.
TEST_P(ShedLockTable, ReleaseKeepingLeavesTheNameLockedForKeepFromTheRelease) {
  auto a = connect();
  auto b = connect();
  LeaseLock job(*a, *dialect_, "hourly", owner_of(kClient, 1));
  LeaseLock next(*b, *dialect_, "hourly", owner_of(kOtherClient, 1));
  ASSERT_TRUE(job.try_acquire(seconds(30)).granted);
  std::this_thread::sleep_for(milliseconds(1000));  // the job runs
  const auto released_at = std::chrono::steady_clock::now();
  job.release(milliseconds(2000));
  const LeaseAttempt refused = next.try_acquire(seconds(30));
  EXPECT_FALSE(refused.granted);
  EXPECT_LE(refused.holder_lease_left, milliseconds(2000));
  EXPECT_GT(refused.holder_lease_left, milliseconds(1500));
  ASSERT_TRUE(next.acquire(seconds(30), seconds(10)));
  const auto waited = std::chrono::steady_clock::now() - released_at;
  EXPECT_GE(waited, milliseconds(1800));
  EXPECT_LT(waited, milliseconds(3500));
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
}

TEST_P(ShedLockTable, ReleaseAfterTheLeaseEndedIsLostAndTheNextHolderKeepsIt) {
  auto a = connect();
  auto b = connect();
  LeaseLock late(*a, *dialect_, "short", owner_of(kClient, 1));
  LeaseLock next(*b, *dialect_, "short", owner_of(kOtherClient, 1));
  ASSERT_TRUE(late.try_acquire(milliseconds(300)).granted);
  ASSERT_TRUE(next.acquire(seconds(10), seconds(5)));
  EXPECT_GT(next.token(), late.token());
  EXPECT_THROW(late.release(), dlock::LostError);
  const auto left = dialect_->lease_left(*b, "short");
  ASSERT_TRUE(left.has_value());
  EXPECT_GT(*left, seconds(8));
  next.release();
}

// ShedLock's name is VARCHAR(64): longer names, and names that are not
// UTF-8, are refused before any statement, naming `name`.
TEST_P(ShedLockTable, NamesOver64CharactersOrNotUtf8AreInvalidArguments) {
  auto a = connect();
  for (const std::string& bad :
       {std::string(), std::string(65, 'x'), std::string("\xff\xfe job"), std::string("\xc0\xaf"),
        std::string("\xed\xa0\x80"), std::string("job\xe2\x82")}) {
    try {
      LeaseLock lock(*a, *dialect_, bad, owner_of(kClient, 1));
      FAIL() << "accepted a name of " << bad.size() << " bytes";
    } catch (const dlock::InvalidArgument& refused) {
      EXPECT_NE(std::string(refused.what()).find("name"), std::string::npos) << refused.what();
    }
  }
  LeaseLock longest(*a, *dialect_, std::string(64, 'x'), owner_of(kClient, 1));
  ASSERT_TRUE(longest.try_acquire(seconds(10)).granted);
  longest.release();
  // 64 characters, 128 bytes: characters count, as in VARCHAR(64).
  std::string polish;
  for (int i = 0; i < 64; ++i) polish += "\xc5\xbc";
  LeaseLock wide(*a, *dialect_, polish, owner_of(kClient, 1));
  ASSERT_TRUE(wide.try_acquire(seconds(10)).granted);
  EXPECT_TRUE(dialect_->lease_left(*a, polish).has_value());
  wide.release();
  EXPECT_THROW(LeaseLock(*a, *dialect_, polish + "x", owner_of(kClient, 1)), dlock::InvalidArgument);
  LeaseLock quoted(*a, *dialect_, "it's; DROP TABLE shedlock", owner_of(kClient, 1));
  ASSERT_TRUE(quoted.try_acquire(seconds(10)).granted);
  quoted.release();
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "3");
}

// ShedLock's extend for every hold of the client at once; a hold whose lease
// ended, a stale grant and another client's hold are not extended.
TEST_P(ShedLockTable, RenewExtendsOnlyTheClientsLiveGrants) {
  auto mine = connect();
  auto theirs = connect();
  LeaseLock a(*mine, *dialect_, "renew-a", owner_of(kClient, 1));
  LeaseLock b(*mine, *dialect_, "renew, \"b\"", owner_of(kClient, 2));
  LeaseLock ended(*mine, *dialect_, "renew-ended", owner_of(kClient, 1));
  LeaseLock foreign(*theirs, *dialect_, "renew-foreign", owner_of(kOtherClient, 1));
  ASSERT_TRUE(a.try_acquire(milliseconds(1500)).granted);
  ASSERT_TRUE(b.try_acquire(milliseconds(1500)).granted);
  ASSERT_TRUE(ended.try_acquire(milliseconds(100)).granted);
  ASSERT_TRUE(foreign.try_acquire(milliseconds(1500)).granted);
  std::this_thread::sleep_for(milliseconds(300));
  const std::vector<LeaseHold> holds{{a.name(), a.token(), a.grant()},
                                     {b.name(), b.token(), b.grant()},
                                     {ended.name(), ended.token(), ended.grant()},
                                     {foreign.name(), foreign.token(), foreign.grant()},
                                     {a.name(), a.token() + 1000, "2001-01-01 00:00:00"}};
  std::vector<std::uint64_t> kept = dialect_->renew(*mine, kClient, holds, seconds(20));
  std::sort(kept.begin(), kept.end());
  std::vector<std::uint64_t> expected{a.token(), b.token()};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(kept, expected);
  EXPECT_GT(*dialect_->lease_left(*theirs, a.name()), seconds(15));
  EXPECT_GT(*dialect_->lease_left(*theirs, b.name()), seconds(15));
  EXPECT_LE(*dialect_->lease_left(*theirs, foreign.name()), milliseconds(1500));
  EXPECT_FALSE(dialect_->lease_left(*theirs, ended.name()).has_value());
}

// ---- beside the real ShedLock ----

bool exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

// ShedLockLoop and SchedulerLockService, built once into the build directory.
const ShedLockJdbcBuild& shedlock_jdbc() {
  static const ShedLockJdbcBuild build =
      build_shedlock_jdbc(DLOCK_SHEDLOCK_JDBC_DIR, DLOCK_SHEDLOCK_JDBC_BUILD_DIR);
  return build;
}

class ShedLockInterop : public ShedLockTable {
 public:
  void SetUp() override {
    const ShedLockJdbcBuild& build = shedlock_jdbc();
    if (!build.missing.empty()) {
      GTEST_SKIP() << "ShedLock interop needs " << build.missing << " on PATH (Maven and a JDK 17+)";
    }
    ASSERT_TRUE(build.built()) << "mvn could not build tests/interop/shedlock_jdbc: " << build.build_failure;
    ShedLockTable::SetUp();
  }

  // java ... MAIN_CLASS JDBC_URL USER PASSWORD NAME <args>
  std::vector<std::string> java(const std::string& main_class, const std::string& name,
                                const std::vector<std::string>& args) const {
    const std::string jdbc =
        std::string(url_.dialect == dlock::sql::SqlDialect::postgresql ? "jdbc:postgresql" : "jdbc:mariadb") +
        "://" + url_.host + ":" + std::to_string(url_.port) + "/" + url_.database;
    std::vector<std::string> all{jdbc, url_.user, url_.password, name};
    all.insert(all.end(), args.begin(), args.end());
    return shedlock_jdbc().java(main_class, all);
  }

  std::vector<std::string> shedlock(const std::string& name, const std::vector<std::string>& args) const {
    return java("ShedLockLoop", name, args);
  }

  // The number after `word` on the line starting with it in `path`; 0 when absent.
  static std::int64_t value_after(const std::string& path, const std::string& word) {
    std::istringstream lines(read_text_file(path));
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind(word + " ", 0) == 0) return std::stoll(line.substr(word.size() + 1));
    }
    return 0;
  }
};

// ShedLock holds: dlock is refused (seeing ShedLock's locked_by and its
// lock_until), then granted once ShedLock's unlock ran, not before.
TEST_P(ShedLockInterop, ShedLockHoldRefusesDlockUntilItsUnlock) {
  TempDir dir;
  ChildProcess java(shedlock("interop-hold", {"hold", "30000", "3000"}), dir.file("java.out"));
  ASSERT_TRUE(wait_until([&] { return value_after(dir.file("java.out"), "locked") != 0; }, seconds(60)))
      << read_text_file(dir.file("java.out"));
  auto connection = connect();
  LeaseLock lock(*connection, *dialect_, "interop-hold", owner_of(kClient, 1));
  const LeaseAttempt refused = lock.try_acquire(seconds(10));
  EXPECT_FALSE(refused.granted);
  EXPECT_EQ(refused.holder, kShedLockHolder);
  EXPECT_GT(refused.holder_lease_left, seconds(20));
  ASSERT_TRUE(lock.acquire(seconds(10), seconds(30)));
  const std::int64_t granted_ns = monotonic_ns();
  ASSERT_TRUE(java.wait_for(seconds(30)).has_value());
  const std::int64_t unlocking_ns = value_after(dir.file("java.out"), "unlocked");
  ASSERT_NE(unlocking_ns, 0) << read_text_file(dir.file("java.out"));
  EXPECT_GT(granted_ns, unlocking_ns);
  // Granted well before ShedLock's lockAtMostFor (30 s) would have ended it
  // (a MySQL waiter backs off, and a loaded machine stretches that: 4 s seen).
  EXPECT_LT(ms_between(unlocking_ns, granted_ns), 10000);
  lock.release();
}

// dlock holds: ShedLock is refused; after dlock's release ShedLock is granted.
TEST_P(ShedLockInterop, DlockHoldRefusesShedLockUntilItsRelease) {
  auto connection = connect();
  LeaseLock lock(*connection, *dialect_, "interop-try", owner_of(kClient, 1));
  ASSERT_TRUE(lock.try_acquire(seconds(30)).granted);
  const ProgramOutput while_held = run_program(shedlock("interop-try", {"try", "10000"}), seconds(120));
  ASSERT_TRUE(while_held.succeeded()) << while_held.output;
  EXPECT_NE(while_held.output.find("refused"), std::string::npos) << while_held.output;
  EXPECT_EQ(while_held.output.find("granted"), std::string::npos) << while_held.output;
  lock.release();
  const ProgramOutput after = run_program(shedlock("interop-try", {"try", "10000"}), seconds(120));
  ASSERT_TRUE(after.succeeded()) << after.output;
  EXPECT_NE(after.output.find("granted"), std::string::npos) << after.output;
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
}

// A job once per period between a cron'd `dlock run` and a ShedLock service
// on one table: dlock's run, its job done, keeps the name for the rest of the
// period (--hold-after-success), so ShedLock's next attempt in the period is
// refused, and so is another `dlock run`; neither runs the job again.
TEST_P(ShedLockInterop, DlockRunHeldAfterSuccessRefusesShedLockForThePeriod) {
#ifndef DLOCK_CLI_PROGRAM
  GTEST_SKIP() << "the dlock command is not built (DLOCK_BUILD_CLI)";
#else
  TempDir dir;
  const std::string url = server_->url("table=shedlock");
  const auto dlock_run = [&](const std::string& ran) {
    return run_program({DLOCK_CLI_PROGRAM, "run", "--url", url, "-n", "--hold-after-success", "1h",
                        "period-job", "--", "touch", dir.file(ran)},
                       seconds(60));
  };
  const ProgramOutput first = dlock_run("first-ran");
  ASSERT_TRUE(first.succeeded()) << first.output;
  EXPECT_TRUE(exists(dir.file("first-ran")));
  const ProgramOutput shedlock_try = run_program(shedlock("period-job", {"try", "10000"}), seconds(120));
  ASSERT_TRUE(shedlock_try.succeeded()) << shedlock_try.output;
  EXPECT_NE(shedlock_try.output.find("refused"), std::string::npos) << shedlock_try.output;
  EXPECT_EQ(shedlock_try.output.find("granted"), std::string::npos) << shedlock_try.output;
  const ProgramOutput second = dlock_run("second-ran");
  EXPECT_EQ(WIFEXITED(second.status) ? WEXITSTATUS(second.status) : -1, 75) << second.output;
  EXPECT_FALSE(exists(dir.file("second-ran"))) << "the job ran twice in the period";
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
#endif
}

// The other way round: ShedLock's run, unlocked with lockAtLeastFor (1 h)
// as @SchedulerLock does, keeps the name; `dlock run --hold-after-success`
// in that period does not run the job.
TEST_P(ShedLockInterop, ShedLockRunWithLockAtLeastForRefusesDlockRunForThePeriod) {
#ifndef DLOCK_CLI_PROGRAM
  GTEST_SKIP() << "the dlock command is not built (DLOCK_BUILD_CLI)";
#else
  TempDir dir;
  const ProgramOutput shedlock_run =
      run_program(shedlock("period-job", {"try", "7200000", "3600000"}), seconds(120));
  ASSERT_TRUE(shedlock_run.succeeded()) << shedlock_run.output;
  ASSERT_NE(shedlock_run.output.find("granted"), std::string::npos) << shedlock_run.output;
  const ProgramOutput run =
      run_program({DLOCK_CLI_PROGRAM, "run", "--url", server_->url("table=shedlock"), "-n",
                   "--hold-after-success", "1h", "period-job", "--", "touch", dir.file("ran")},
                  seconds(60));
  EXPECT_EQ(WIFEXITED(run.status) ? WEXITSTATUS(run.status) : -1, 75) << run.output;
  EXPECT_FALSE(exists(dir.file("ran"))) << "the job ran twice in the period";
#endif
}

// ShedLock's loop (sections of 20 ms) and two dlock threads take turns for
// several seconds, dlock on `dlock_name`, ShedLock on `shedlock_name`; both
// sides stamp their sections with CLOCK_MONOTONIC (Java's System.nanoTime()
// is that clock on Linux, checked here).
struct Contention {
  SafetyReport all;         // both sides' sections
  SafetyReport dlock_only;  // dlock's, whose tokens must also rise
  std::size_t dlock_sections = 0;
  std::size_t shedlock_sections = 0;
  FencedStoreState store;
  int failures = 0;
};

Contention contend(ShedLockInterop& test, const std::string& dlock_name, const std::string& shedlock_name) {
  constexpr int kDlockThreads = 2;
  constexpr milliseconds kRun(8000);
  Contention result;
  TempDir dir;
  FencedStore store(dir.file("store"));
  const std::int64_t launched_ns = monotonic_ns();
  ChildProcess java(test.shedlock(shedlock_name, {"loop", "10000", std::to_string(kRun.count()), "20",
                                                  dir.file("java.sections")}),
                    dir.file("java.out"));
  const std::string out = dir.file("java.out");
  if (!wait_until([&] { return ShedLockInterop::value_after(out, "clock") != 0; }, seconds(60))) {
    ADD_FAILURE() << "ShedLockLoop did not start:\n" << read_text_file(out);
    return result;
  }
  const std::int64_t java_clock = ShedLockInterop::value_after(out, "clock");
  EXPECT_TRUE(java_clock > launched_ns && java_clock < monotonic_ns())
      << "Java's System.nanoTime() is not CLOCK_MONOTONIC: " << java_clock;

  std::atomic<int> failures{0};
  {
    SectionLog log(dir.file("dlock.sections"));
    std::vector<std::thread> workers;
    for (int t = 0; t < kDlockThreads; ++t) {
      workers.emplace_back([&, t] {
        try {
          auto connection = test.connect();
          const auto end = std::chrono::steady_clock::now() + kRun;
          while (std::chrono::steady_clock::now() < end) {
            LeaseLock lock(*connection, test.dialect(), dlock_name, owner_of(kClient, t));
            if (!lock.acquire(seconds(10), seconds(20))) {
              ++failures;
              return;
            }
            Section section;
            section.token = lock.token();
            section.owner = "dlock" + std::to_string(t);
            section.start_ns = monotonic_ns();
            const long long value = store.read();
            std::this_thread::sleep_for(milliseconds(20));
            section.write_accepted = store.write(lock.token(), value + 1);
            section.end_ns = monotonic_ns();
            log.append(section);
            lock.release();
            std::this_thread::sleep_for(milliseconds(10));
          }
        } catch (const std::exception&) {
          ++failures;
        }
      });
    }
    for (auto& worker : workers) worker.join();
  }
  const std::optional<int> java_status = java.wait_for(seconds(60));
  EXPECT_TRUE(java_status && WIFEXITED(*java_status) && WEXITSTATUS(*java_status) == 0)
      << (java_status ? describe_wait_status(*java_status) : "still running") << "\n"
      << read_text_file(out);

  const std::vector<Section> ours = SectionLog::read(dir.file("dlock.sections"));
  std::vector<Section> all = ours;
  std::istringstream java_lines(read_text_file(dir.file("java.sections")));
  Section theirs;
  theirs.owner = "shedlock";
  while (java_lines >> theirs.start_ns >> theirs.end_ns) {
    all.push_back(theirs);
    ++result.shedlock_sections;
  }
  result.all = check_sections(all);
  result.dlock_only = check_sections(ours);
  result.dlock_sections = ours.size();
  result.store = store.state();
  result.failures = failures.load();
  std::cout << "sections: dlock " << ours.size() << ", ShedLock " << result.shedlock_sections << "\n";
  return result;
}

TEST_P(ShedLockInterop, ContendingWithShedLockSectionsNeverOverlap) {
  const Contention run = contend(*this, "interop-contended", "interop-contended");
  EXPECT_EQ(run.failures, 0);
  EXPECT_EQ(run.all.overlaps, 0u) << run.all.summary();
  EXPECT_TRUE(run.dlock_only.clean()) << run.dlock_only.summary();
  EXPECT_GE(run.dlock_sections, 1u) << "dlock never got the name";
  EXPECT_GE(run.shedlock_sections, 1u) << "ShedLock never got the name";
  EXPECT_EQ(run.store.value, static_cast<long long>(run.dlock_sections));
  EXPECT_EQ(run.store.stale_rejections, 0);
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
}

// The checker can fail: the same run on two different names overlaps.
TEST_P(ShedLockInterop, CanaryDifferentNamesAreFlaggedAsOverlapping) {
  const Contention run = contend(*this, "interop-canary-dlock", "interop-canary-shedlock");
  EXPECT_EQ(run.failures, 0);
  EXPECT_GT(run.all.overlaps, 0u) << run.all.summary();
  EXPECT_TRUE(run.dlock_only.clean()) << run.dlock_only.summary();
}

// ---- a Spring @SchedulerLock service beside a cron'd fleet of `dlock run` ----

// One run of the shared job, as its line in the runs file: "SIDE START_NS
// END_NS", Unix time (dlock run's periods are aligned to it).
struct JobRun {
  std::string side;  // "spring" or "dlock"
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

std::vector<JobRun> read_job_runs(const std::string& path) {
  std::vector<JobRun> runs;
  std::istringstream lines(read_text_file(path));
  JobRun run;
  while (lines >> run.side >> run.start_ns >> run.end_ns) runs.push_back(run);
  std::sort(runs.begin(), runs.end(),
            [](const JobRun& a, const JobRun& b) { return a.start_ns < b.start_ns; });
  return runs;
}

// What the job's owner checks in its log: runs never overlap, and no period
// (`period` long, aligned to the Unix epoch, as `dlock run
// --hold-after-success` counts them) has two runs. A run counts in the period
// its start falls in or, starting less than `start_lag` into a period, maybe
// in the one before: `dlock run` counts a run in the period of its grant, and
// the job's first stamp comes a little after it. Each run, in order of start,
// takes the earliest of its periods still free.
struct PeriodReport {
  std::size_t spring_runs = 0;
  std::size_t dlock_runs = 0;
  std::vector<std::string> overlaps;
  std::vector<std::string> doubled_periods;
  std::string runs;  // one line per run: side, period, ms into it, duration

  std::string summary() const {
    std::ostringstream text;
    text << spring_runs << " Spring runs, " << dlock_runs << " dlock runs";
    for (const auto& line : overlaps) text << "\n  overlap: " << line;
    for (const auto& line : doubled_periods) text << "\n  twice in a period: " << line;
    return text.str() + "\nruns:" + runs;
  }
};

std::string describe(const JobRun& a, const JobRun& b) {
  return a.side + " at " + std::to_string(a.start_ns / 1000000) + " ms, " + b.side + " at " +
         std::to_string(b.start_ns / 1000000) + " ms";
}

PeriodReport judge_periods(const std::vector<JobRun>& runs, milliseconds period, milliseconds start_lag) {
  PeriodReport report;
  const std::int64_t period_ns = period.count() * 1000000;
  const std::int64_t lag_ns = start_lag.count() * 1000000;
  std::int64_t last_period = std::numeric_limits<std::int64_t>::min();
  std::ostringstream table;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const JobRun& run = runs[i];
    ++(run.side == "spring" ? report.spring_runs : report.dlock_runs);
    const std::int64_t own = run.start_ns / period_ns;
    const std::int64_t into = run.start_ns % period_ns;
    table << "\n  " << run.side << " period " << own << " +" << into / 1000000 << " ms for "
          << (run.end_ns - run.start_ns) / 1000000 << " ms";
    if (i > 0 && run.start_ns < runs[i - 1].end_ns) report.overlaps.push_back(describe(runs[i - 1], run));
    const std::int64_t earliest = into < lag_ns ? own - 1 : own;
    if (std::max(earliest, last_period + 1) > own) {
      report.doubled_periods.push_back(describe(runs[i - 1], run));
    } else {
      last_period = std::max(earliest, last_period + 1);
    }
  }
  report.runs = table.str();
  return report;
}

std::int64_t unix_ms() {
  return std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

constexpr milliseconds kJobPeriod(2000);
// From dlock's grant to the job's first stamp: dlock run's start of the job
// (and sh's, and date's) on a loaded machine.
constexpr milliseconds kJobStartLag(250);

// SchedulerLockService (its @Scheduled job tried every second, lockAtLeastFor
// = the period) and two cron'd nodes, each trying `dlock run -n
// --hold-after-success 2s` every ~0.2 s, for `run`: Spring's job on
// `spring_name`, dlock's on `dlock_name`. Both jobs take 100 ms and log their
// runs to one file.
struct SharedJob {
  std::vector<JobRun> runs;
  std::string dlock_failures;  // exit codes other than 0 (ran) and 75 (refused)
  std::string spring_output;
  bool spring_exited = false;
};

SharedJob run_shared_job(ShedLockInterop& test, const std::string& url, const std::string& spring_name,
                         const std::string& dlock_name, milliseconds run) {
  SharedJob result;
#ifdef DLOCK_CLI_PROGRAM
  TempDir dir;
  const std::string runs = dir.file("runs");
  const std::string until = std::to_string(unix_ms() + run.count());
  ChildProcess spring(test.java("SchedulerLockService", spring_name,
                                {std::to_string(kJobPeriod.count()), "100", until, runs}),
                      dir.file("spring.out"));
  // A node's crontab: `dlock run` every ~0.2 s; the job logs its own run.
  const std::string node =
      "while [ \"$(date +%s%3N)\" -lt \"$5\" ]; do\n"
      "  \"$1\" run --url \"$2\" -n --hold-after-success \"$6\" \"$3\" -- sh -c "
      "'s=$(date +%s%N); sleep 0.1; echo \"dlock $s $(date +%s%N)\" >> \"$0\"' \"$4\"\n"
      "  code=$?\n"
      "  [ $code -eq 0 ] || [ $code -eq 75 ] || echo \"dlock run exited $code\"\n"
      "  sleep 0.2\n"
      "done\n";
  std::vector<std::unique_ptr<ChildProcess>> nodes;
  for (int n = 0; n < 2; ++n) {
    nodes.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{"sh", "-c", node, "node", DLOCK_CLI_PROGRAM, url, dlock_name, runs, until,
                                 std::to_string(kJobPeriod.count() / 1000) + "s"},
        dir.file("node" + std::to_string(n) + ".out")));
  }
  for (int n = 0; n < 2; ++n) {
    const std::optional<int> status = nodes[n]->wait_for(run + seconds(30));
    const std::string out = read_text_file(dir.file("node" + std::to_string(n) + ".out"));
    if (!status || out.find("exited") != std::string::npos) result.dlock_failures += out;
  }
  const std::optional<int> spring_status = spring.wait_for(seconds(60));
  result.spring_exited = spring_status && WIFEXITED(*spring_status) && WEXITSTATUS(*spring_status) == 0;
  result.spring_output = read_text_file(dir.file("spring.out"));
  result.runs = read_job_runs(runs);
#else
  (void)test, (void)url, (void)spring_name, (void)dlock_name, (void)run;
#endif
  return result;
}

// Issue 24's promise: a Spring @SchedulerLock job and a cron'd `dlock run
// --hold-after-success` on the same table never run the job twice in a period.
TEST_P(ShedLockInterop, SpringSchedulerLockAndDlockRunRunTheJobOncePerPeriod) {
#ifndef DLOCK_CLI_PROGRAM
  GTEST_SKIP() << "the dlock command is not built (DLOCK_BUILD_CLI)";
#else
  const SharedJob job =
      run_shared_job(*this, server_->url("table=shedlock"), "nightly-report", "nightly-report", seconds(18));
  ASSERT_TRUE(job.spring_exited) << job.spring_output;
  EXPECT_EQ(job.dlock_failures, "");
  const PeriodReport report = judge_periods(job.runs, kJobPeriod, kJobStartLag);
  EXPECT_TRUE(report.overlaps.empty()) << report.summary();
  EXPECT_TRUE(report.doubled_periods.empty()) << report.summary();
  EXPECT_GE(report.spring_runs, 1u) << report.summary();
  EXPECT_GE(report.dlock_runs, 1u) << report.summary();
  std::cout << "runs: Spring " << report.spring_runs << ", dlock " << report.dlock_runs << "\n";
  EXPECT_EQ(query("SELECT COUNT(*) FROM shedlock"), "1");
#endif
}

// The judge can fail: Spring's job and dlock's on two names run in the same periods.
TEST_P(ShedLockInterop, CanarySpringAndDlockOnDifferentNamesAreFlaggedAsRunningTwiceInAPeriod) {
#ifndef DLOCK_CLI_PROGRAM
  GTEST_SKIP() << "the dlock command is not built (DLOCK_BUILD_CLI)";
#else
  const SharedJob job =
      run_shared_job(*this, server_->url("table=shedlock"), "canary-spring", "canary-dlock", seconds(9));
  ASSERT_TRUE(job.spring_exited) << job.spring_output;
  EXPECT_EQ(job.dlock_failures, "");
  const PeriodReport report = judge_periods(job.runs, kJobPeriod, kJobStartLag);
  EXPECT_FALSE(report.doubled_periods.empty()) << report.summary();
#endif
}

INSTANTIATE_TEST_SUITE_P(Servers, ShedLockTable, ::testing::ValuesIn(built_sql_servers()), sql_server_name);
INSTANTIATE_TEST_SUITE_P(Servers, ShedLockInterop, ::testing::ValuesIn(built_sql_servers()), sql_server_name);

}  // namespace
}  // namespace dlock_test
