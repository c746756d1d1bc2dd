// The read-write lock judged by its effects, across processes: a writer never
// overlaps anyone (reader or writer), readers really share, tokens rise; with
// holders killed (kill -9) and a writer paused (SIGSTOP) past its lease.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

#include "contention_run.hpp"
#include "dlock.h"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "rw_safety_checker.hpp"
#include "section_log.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "rwsafe";
constexpr int64_t kLeaseMs = 1000;

class RwLockSafety : public RedisFixture {
 protected:
  // A worker that takes `side` once and holds it for hold_ms (tests/worker).
  std::unique_ptr<ChildProcess> start_holder(const std::string& side, const std::string& output,
                                             const std::string& store, const std::string& log,
                                             const std::vector<std::string>& lease_arguments,
                                             int64_t hold_ms) {
    return start_hold_worker({server().url(), kName, store, log, side, hold_ms, lease_arguments}, output);
  }

  TempDir dir_;
};

Section section(const std::string& owner, uint64_t token, int64_t start, int64_t end) {
  Section made;
  made.owner = owner;
  made.token = token;
  made.start_ns = start;
  made.end_ns = end;
  return made;
}

TEST(RwSafetyChecker, SharedReadsPassAndAReadInsideAWriteIsFlagged) {
  const RwSafetyReport fine =
      check_rw_sections({section("r:1", 1, 0, 10), section("r:2", 2, 5, 15), section("w:3", 3, 20, 30)});
  EXPECT_TRUE(fine.clean()) << fine.summary();
  EXPECT_EQ(fine.shared_reads, 1u);

  const RwSafetyReport overlap = check_rw_sections({section("w:1", 1, 0, 10), section("r:2", 2, 5, 15)});
  EXPECT_EQ(overlap.read_write_overlaps, 1u);
  EXPECT_FALSE(overlap.clean());

  const RwSafetyReport stale = check_rw_sections({section("w:1", 5, 0, 10), section("r:2", 2, 20, 30)});
  EXPECT_EQ(stale.token_order_violations, 1u);
  EXPECT_FALSE(stale.clean());
}

TEST_F(RwLockSafety, WritersExcludeEveryoneWhileHoldersAreKilled) {
  const std::vector<std::string> watchdog{"--lease-ms", "-1", "--watchdog-timeout-ms",
                                          std::to_string(kLeaseMs)};
  // A reader and a writer that die holding the lock: the others go on once their leases run out.
  const auto dead_reader = start_holder("read", dir_.file("reader.out"), dir_.file("dead-store"),
                                        dir_.file("dead-sections"), watchdog, 60000);
  wait_until_acquired(dir_.file("reader.out"));

  ContentionSetup setup;
  setup.url = server().url();
  setup.name = kName;
  setup.kind = "read-write";
  setup.processes = 4;
  setup.threads = 2;
  setup.cycles = 60;
  setup.watchdog_timeout_ms = kLeaseMs;
  setup.max_sleep_us = 3000;
  ContentionRun run(setup);

  std::this_thread::sleep_for(milliseconds(300));
  dead_reader->kill_and_reap();
  const auto dead_writer = start_holder("write", dir_.file("writer.out"), dir_.file("dead-store"),
                                        dir_.file("dead-sections"), watchdog, 60000);
  wait_until_acquired(dir_.file("writer.out"));
  dead_writer->kill_and_reap();

  const std::string failures = run.wait(milliseconds(120000));
  EXPECT_EQ(failures, "");
  const RwSafetyReport report = check_rw_sections(run.sections());
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_GT(report.writers.sections, 0u) << "no write happened: the run proved nothing";
  EXPECT_GT(report.shared_reads, 0u) << "readers never shared: " << report.summary();
  const FencedStoreState store = run.store();
  EXPECT_EQ(store.value, store.accepted_writes);
  EXPECT_EQ(static_cast<std::size_t>(store.accepted_writes), report.writers.sections);
  EXPECT_EQ(store.stale_rejections, 0);
  EXPECT_FALSE(key_exists(server(), kName)) << "the lock was left behind";
}

// A writer stopped past its lease: the next section is granted, the paused
// writer's late write is refused by its token, and the checker sees the
// overlap that an unfenced resource would have suffered.
class PausedWriter : public RwLockSafety, public ::testing::WithParamInterface<const char*> {
 protected:
  std::vector<std::string> lease_arguments() const {
    if (std::string(GetParam()) == "fixed") return {"--lease-ms", std::to_string(kLeaseMs)};
    return {"--lease-ms", "-1", "--watchdog-timeout-ms", std::to_string(kLeaseMs)};
  }
};

TEST_P(PausedWriter, IsFencedAndTheCheckerFlagsTheOverlap) {
  const std::string output = dir_.file("writer.out");
  const auto writer =
      start_holder("write", output, dir_.file("store"), dir_.file("sections"), lease_arguments(), 300);
  const uint64_t paused_token = wait_until_acquired(output);
  writer->signal(SIGSTOP);
  const int64_t stopped_ms = monotonic_ms();

  const ClientHandle client = open();
  dlock_lock* raw = nullptr;
  require_ok(dlock_rwlock_write_lock(client.get(), kName, &raw), "dlock_rwlock_write_lock");
  const LockHandle lock(raw);
  const FencedStore store(dir_.file("store"));
  Section mine;
  mine.owner = "w:test";
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 3 * kLeaseMs, 20000, &mine.token), DLOCK_OK));
  mine.start_ns = monotonic_ns();
  EXPECT_GT(mine.token, paused_token);
  mine.write_accepted = store.write(mine.token, store.read() + 1);
  EXPECT_TRUE(mine.write_accepted);

  std::this_thread::sleep_for(milliseconds(std::max<int64_t>(0, stopped_ms + 2 * kLeaseMs - monotonic_ms())));
  writer->signal(SIGCONT);
  EXPECT_EQ(wait_for_output(output, "write", milliseconds(10000)).value_or(""), "stale");
  EXPECT_EQ(wait_for_output(output, "release", milliseconds(10000)).value_or(""),
            std::to_string(DLOCK_E_LOST));
  EXPECT_EQ(wait_for_output(output, "lost_callbacks", milliseconds(10000)).value_or(""), "1");
  ASSERT_TRUE(writer->wait_for(milliseconds(10000)).has_value());

  mine.end_ns = monotonic_ns();
  mine.release_status = dlock_lock_release(lock.get());
  EXPECT_TRUE(status_is(mine.release_status, DLOCK_OK)) << "the paused writer's release touched our hold";
  SectionLog(dir_.file("sections")).append(mine);

  EXPECT_EQ(store.state().value, 1);
  EXPECT_GE(store.state().stale_rejections, 1);
  const RwSafetyReport report = check_rw_sections(SectionLog::read(dir_.file("sections")));
  EXPECT_EQ(report.writers.overlaps, 1u) << "the checker must see the unfenced overlap: " << report.summary();
  EXPECT_EQ(report.writers.token_order_violations, 0u) << report.summary();
}

INSTANTIATE_TEST_SUITE_P(Lease, PausedWriter, ::testing::Values("fixed", "watchdog"));

}  // namespace
}  // namespace dlock_test
