// dlock's lock on ShedLock's table (`?table=shedlock`, docs/design/backends.md
// 3.6; src/backends/sql/shedlock_dialect.hpp) against real PostgreSQL 15 and
// MariaDB 10.11 servers started on claimed loopback ports: first dlock alone
// (grants, tokens, release that never deletes, the hold after success, names,
// renewal), then beside the real ShedLock 5.16 (tests/interop/shedlock_jdbc:
// JdbcTemplateLockProvider with usingDbTime(), built with mvn into the build
// directory), each side refusing the other's hold and both contending on one
// name, judged by the section log and the safety checker.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
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

// `dlock run --hold-after-success`: ShedLock's unlock with lockAtLeastFor, so
// the name stays locked until the grant + keep, then anyone may take it.
TEST_P(ShedLockTable, ReleaseKeepingLeavesTheNameLockedUntilGrantPlusKeep) {
  auto a = connect();
  auto b = connect();
  LeaseLock job(*a, *dialect_, "hourly", owner_of(kClient, 1));
  LeaseLock next(*b, *dialect_, "hourly", owner_of(kOtherClient, 1));
  const auto granted_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(job.try_acquire(seconds(30)).granted);
  job.release(milliseconds(2000));
  const LeaseAttempt refused = next.try_acquire(seconds(30));
  EXPECT_FALSE(refused.granted);
  EXPECT_LE(refused.holder_lease_left, milliseconds(2000));
  EXPECT_GT(refused.holder_lease_left, milliseconds(1000));
  ASSERT_TRUE(next.acquire(seconds(30), seconds(10)));
  const auto waited = std::chrono::steady_clock::now() - granted_at;
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

// ShedLockLoop built once into the build directory (again when its sources
// are newer than the jar); empty with the reason when mvn or java is missing.
struct ShedLockProgram {
  std::string classpath;
  std::string missing;
  std::string build_failure;
};

bool on_path(const std::string& program) {
  return run_program({"sh", "-c", "command -v " + program}, seconds(10)).succeeded();
}

time_t modified(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? info.st_mtime : 0;
}

bool exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

const ShedLockProgram& shedlock_program() {
  static const ShedLockProgram program = [] {
    ShedLockProgram built;
    for (const char* tool : {"mvn", "java"}) {
      if (!on_path(tool)) built.missing += std::string(built.missing.empty() ? "" : ", ") + tool;
    }
    if (!built.missing.empty()) return built;
    const std::string source = DLOCK_SHEDLOCK_JDBC_DIR;
    const std::string out = DLOCK_SHEDLOCK_JDBC_BUILD_DIR;
    const std::string jar = out + "/shedlock-interop-1.jar";
    const time_t sources = std::max(modified(source + "/pom.xml"),
                                    modified(source + "/src/main/java/io/dlock/test/ShedLockLoop.java"));
    if (modified(jar) == 0 || modified(jar) < sources) {
      const ProgramOutput mvn =
          run_program({"mvn", "-B", "-q", "-f", source + "/pom.xml", "package", "-Ddlock.build.dir=" + out},
                      std::chrono::minutes(10));
      if (!mvn.succeeded()) {
        built.build_failure = describe_wait_status(mvn.status) + ":\n" + mvn.output;
        return built;
      }
    }
    built.classpath = out + "/classes:" + out + "/lib/*";
    return built;
  }();
  return program;
}

class ShedLockInterop : public ShedLockTable {
 public:
  void SetUp() override {
    const ShedLockProgram& program = shedlock_program();
    if (!program.missing.empty()) {
      GTEST_SKIP() << "ShedLock interop needs " << program.missing << " on PATH (Maven and a JDK 17+)";
    }
    ASSERT_TRUE(program.build_failure.empty())
        << "mvn could not build ShedLockLoop: " << program.build_failure;
    ShedLockTable::SetUp();
  }

  // java ... ShedLockLoop JDBC_URL USER PASSWORD NAME <args>
  std::vector<std::string> shedlock(const std::string& name, const std::vector<std::string>& args) const {
    const std::string jdbc =
        std::string(url_.dialect == dlock::sql::SqlDialect::postgresql ? "jdbc:postgresql" : "jdbc:mariadb") +
        "://" + url_.host + ":" + std::to_string(url_.port) + "/" + url_.database;
    std::vector<std::string> argv{
        "java",        "-cp", shedlock_program().classpath, "io.dlock.test.ShedLockLoop", jdbc, url_.user,
        url_.password, name};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
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
      run_program({DLOCK_CLI_PROGRAM, "run", "--url", server_->url("table=shedlock"), "-n", "--hold-after-success",
                   "1h", "period-job", "--", "touch", dir.file("ran")},
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

INSTANTIATE_TEST_SUITE_P(Servers, ShedLockTable, ::testing::ValuesIn(built_sql_servers()), sql_server_name);
INSTANTIATE_TEST_SUITE_P(Servers, ShedLockInterop, ::testing::ValuesIn(built_sql_servers()), sql_server_name);

}  // namespace
}  // namespace dlock_test
