// B1, B2, C1, C3, C4 and connection kills: faults of holders and of the server.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "contention_run.hpp"
#include "dlock.h"
#include "fenced_store.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_info.hpp"
#include "redis_inspect.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "faulty";
constexpr int64_t kLeaseMs = 1000;

class Faults : public RedisFixture {
 protected:
  // A worker process that takes the lock once and holds it for hold_ms.
  std::unique_ptr<ChildProcess> start_holder(const std::vector<std::string>& lease_arguments,
                                             int64_t hold_ms) {
    return start_hold_worker(
        {server().url(), kName, store_path(), dir_.file("sections"), "", hold_ms, lease_arguments},
        holder_output());
  }

  // The token the holder reported, once it holds the lock.
  uint64_t wait_until_held() { return wait_until_acquired(holder_output()); }

  std::string holder_report(const std::string& key) {
    return wait_for_output(holder_output(), key, milliseconds(10000)).value_or("<nothing>");
  }

  std::string holder_output() const { return dir_.file("holder.out"); }
  std::string store_path() const { return dir_.file("store"); }

  TempDir dir_;
};

TEST_F(Faults, KilledHolderFreesTheLockWithinItsLease) {
  const auto holder =
      start_holder({"--lease-ms", "-1", "--watchdog-timeout-ms", std::to_string(kLeaseMs)}, 60000);
  const uint64_t holder_token = wait_until_held();
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  auto waiter = acquire_in_background(lock.get(), 2, -1);
  std::this_thread::sleep_for(milliseconds(kLeaseMs / 2));
  ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while held";

  const long long remaining = pttl(server(), kName);
  const int64_t killed_ns = monotonic_ns();
  holder->kill_and_reap();
  ASSERT_EQ(waiter.wait_for(milliseconds(kLeaseMs + 5000)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
  const int64_t waited = ms_between(killed_ns, outcome.returned_ns);
  EXPECT_GE(waited, remaining - 150) << "granted before the dead holder's lease ran out";
  EXPECT_LT(waited, kLeaseMs + 1000) << "the lock stayed taken past the dead holder's lease";
  EXPECT_GT(outcome.token, holder_token);
}

// B2: the holder is stopped past its lease while in its critical section.
class PausedHolder : public Faults, public ::testing::WithParamInterface<const char*> {
 protected:
  std::vector<std::string> lease_arguments() const {
    if (std::string(GetParam()) == "fixed") return {"--lease-ms", std::to_string(kLeaseMs)};
    return {"--lease-ms", "-1", "--watchdog-timeout-ms", std::to_string(kLeaseMs)};
  }
};

TEST_P(PausedHolder, NextHolderIsFencedAndThePausedOneLearnsItLost) {
  const auto holder = start_holder(lease_arguments(), 300);
  const uint64_t paused_token = wait_until_held();
  holder->signal(SIGSTOP);
  const int64_t stopped_ms = monotonic_ms();

  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  const FencedStore store(store_path());
  Section mine;
  mine.owner = "test";
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 3 * kLeaseMs, 20000, &mine.token), DLOCK_OK));
  mine.start_ns = monotonic_ns();
  EXPECT_GT(mine.token, paused_token);
  mine.write_accepted = store.write(mine.token, store.read() + 1);
  EXPECT_TRUE(mine.write_accepted);

  std::this_thread::sleep_for(milliseconds(std::max<int64_t>(0, stopped_ms + 2 * kLeaseMs - monotonic_ms())));
  holder->signal(SIGCONT);
  EXPECT_EQ(holder_report("write"), "stale") << "the store accepted the paused holder's stale token";
  EXPECT_EQ(holder_report("release"), std::to_string(DLOCK_E_LOST));
  EXPECT_EQ(holder_report("lost_callbacks"), "1");
  const auto status = holder->wait_for(milliseconds(10000));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(*status, 0) << describe_wait_status(*status) << "\n" << read_text_file(holder_output());

  mine.end_ns = monotonic_ns();
  mine.release_status = dlock_lock_release(lock.get());
  EXPECT_TRUE(status_is(mine.release_status, DLOCK_OK)) << "the paused holder's release touched our hold";
  SectionLog(dir_.file("sections")).append(mine);

  const FencedStoreState state = store.state();
  EXPECT_GE(state.stale_rejections, 1);
  EXPECT_EQ(state.value, 1);
  const SafetyReport report = check_sections(SectionLog::read(dir_.file("sections")));
  EXPECT_EQ(report.overlaps, 1u) << "without fencing the sections overlap, and the checker must see it: "
                                 << report.summary();
  EXPECT_EQ(report.token_order_violations, 0u) << report.summary();
}

INSTANTIATE_TEST_SUITE_P(Lease, PausedHolder, ::testing::Values("fixed", "watchdog"));

TEST_F(Faults, ServerPausedShorterThanTheLease) {
  constexpr int64_t kWatchdogMs = 2000;
  const ClientHandle holder_client = open(kWatchdogMs);
  const ClientHandle rival_client = open();
  const LockHandle held = new_lock(holder_client.get(), kName);
  const LockHandle rival = new_lock(rival_client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(held.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));

  server().pause();
  auto during_pause = acquire_in_background(rival.get(), 2, 0);
  std::this_thread::sleep_for(milliseconds(kWatchdogMs / 2));
  server().resume();
  ASSERT_EQ(during_pause.wait_for(milliseconds(10000)), std::future_status::ready);
  const int status = during_pause.get().status;
  EXPECT_TRUE(status == DLOCK_NOT_ACQUIRED || status == DLOCK_E_CONNECTION)
      << "a paused server granted a held lock: " << describe_status(status);

  std::this_thread::sleep_for(milliseconds(kWatchdogMs / 2));
  EXPECT_EQ(lost.calls(), 0) << "a pause shorter than the lease lost the lock";
  int is_held = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_held(held.get(), &is_held), DLOCK_OK));
  EXPECT_EQ(is_held, 1);
  EXPECT_GT(pttl(server(), kName), 0);
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  const AcquireOutcome after = acquire_in_background(rival.get(), 2, 5000).get();
  EXPECT_TRUE(status_is(after.status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, after.returned_ns), 1000) << "progress did not resume after the pause";
}

TEST_F(Faults, RestartWithoutPersistenceKeepsTokensRising) {
  constexpr int64_t kWatchdogMs = 1500;
  const ClientHandle holder_client = open(kWatchdogMs);
  const ClientHandle waiter_client = open();
  const LockHandle held = new_lock(holder_client.get(), kName);
  const LockHandle waiting = new_lock(waiter_client.get(), kName);
  uint64_t highest = 0;
  for (int i = 0; i < 5; ++i) {
    uint64_t token = 0;
    ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, &token), DLOCK_OK));
    ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
    highest = std::max(highest, token);
  }
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(held.get()), DLOCK_OK));
  uint64_t held_token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, &held_token), DLOCK_OK));
  highest = std::max(highest, held_token);
  const auto holder_fields = hash_fields(server(), kName);
  std::vector<std::future<AcquireOutcome>> waiters;
  for (uint64_t owner = 2; owner <= 3; ++owner)
    waiters.push_back(acquire_in_background(waiting.get(), owner, -1));
  std::this_thread::sleep_for(milliseconds(300));

  server().kill9();
  server().restart();
  // The hold is gone; a waiter may hold the name again already.
  EXPECT_NE(hash_fields(server(), kName), holder_fields) << "the hold survived a restart without persistence";

  for (auto& waiter : waiters) {
    ASSERT_EQ(waiter.wait_for(milliseconds(15000)), std::future_status::ready) << "a waiter never acquired";
    const AcquireOutcome outcome = waiter.get();
    ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_GT(outcome.token, highest) << "a token after the restart repeats an earlier one";
  }
  EXPECT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(3 * kWatchdogMs)))
      << "the holder never learnt its lock vanished with the restart";
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);
  uint64_t later = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, 5000, &later), DLOCK_OK));
  EXPECT_GT(later, highest);
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
}

class AppendOnlyFaults : public Faults {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {"appendonly yes", "appendfsync always"};
    return config;
  }
};

TEST_F(AppendOnlyFaults, FixedLeaseHoldSurvivesARestart) {
  const ClientHandle holder_client = open();
  const ClientHandle rival_client = open();
  const LockHandle held = new_lock(holder_client.get(), kName);
  const LockHandle rival = new_lock(rival_client.get(), kName);
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, 20000, &token), DLOCK_OK));
  const auto fields = hash_fields(server(), kName);
  const long long before = pttl(server(), kName);

  server().kill9();
  server().restart();
  EXPECT_EQ(hash_fields(server(), kName), fields) << "the hold did not survive an AOF restart";
  const long long after = pttl(server(), kName);
  EXPECT_GT(after, 0);
  EXPECT_LE(after, before);
  EXPECT_EQ(string_value(server(), fencing_counter_key(kName)), std::to_string(token));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(rival.get(), 2, 0, 5000, nullptr, nullptr), DLOCK_NOT_ACQUIRED));

  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
  uint64_t next = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(rival.get(), 2, 0, 5000, nullptr, &next), DLOCK_OK));
  EXPECT_GT(next, token);
}

TEST_F(AppendOnlyFaults, WatchdogKeepsRenewingAfterARestart) {
  constexpr int64_t kWatchdogMs = 1200;
  const ClientHandle client = open(kWatchdogMs);
  const LockHandle lock = new_lock(client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  server().kill9();
  server().restart();
  const int64_t until = monotonic_ms() + 3 * kWatchdogMs;
  while (monotonic_ms() < until) {
    ASSERT_GT(pttl(server(), kName), 0) << "renewals stopped after the restart";
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(lost.calls(), 0);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

TEST_F(Faults, OperationsSucceedAfterTheirConnectionsAreKilled) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  const auto kill_connections = [&] { server().command({"CLIENT", "KILL", "TYPE", "normal"}); };
  kill_connections();
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  kill_connections();
  int locked = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_locked(lock.get(), &locked), DLOCK_OK));
  EXPECT_EQ(locked, 1);
  kill_connections();
  int64_t ttl = 0;
  EXPECT_TRUE(status_is(dlock_lock_ttl(lock.get(), &ttl), DLOCK_OK));
  kill_connections();
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
  kill_connections();
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK));
  kill_connections();
  EXPECT_TRUE(status_is(dlock_lock_force_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
}

// Every pooled connection closed by the server while idle (a restart, CLIENT
// KILL, its idle timeout): the next command goes out on a new connection at
// once. Trying each dead one first would cost a failure and a back-off
// apiece, more than a 400 ms command timeout for the eight of a full pool.
TEST_F(Faults, PooledConnectionsClosedWhileIdleAreNotTried) {
  constexpr int kPoolSize = 8;
  dlock_client_options options;
  dlock_client_options_init(&options);
  options.command_timeout_ms = 400;
  options.pool_size = kPoolSize;
  const auto connected_clients = [&] {
    return std::stoll(parse_info(server().command({"INFO", "clients"}).str).at("connected_clients"));
  };
  const long long others = connected_clients();
  const ClientHandle client = open_client(server().url(), options);
  const LockHandle lock = new_lock(client.get(), kName);

  // Eight commands at once, held up by a paused server: eight connections.
  ASSERT_FALSE(server().command({"CLIENT", "PAUSE", "200"}).is_error());
  std::vector<std::thread> readers;
  std::atomic<int> failed{0};
  for (int i = 0; i < kPoolSize; ++i) {
    readers.emplace_back([&] {
      int locked = 0;
      if (dlock_lock_is_locked(lock.get(), &locked) != DLOCK_OK) ++failed;
    });
  }
  for (std::thread& reader : readers) reader.join();
  ASSERT_EQ(failed.load(), 0);
  ASSERT_GE(connected_clients() - others, kPoolSize) << "the pool did not fill";

  server().command({"CLIENT", "KILL", "TYPE", "normal"});
  ASSERT_TRUE(wait_until([&] { return connected_clients() <= others; }, milliseconds(5000)));
  const int64_t started = monotonic_ms();
  int locked = -1;
  EXPECT_TRUE(status_is(dlock_lock_is_locked(lock.get(), &locked), DLOCK_OK))
      << "a try on each dead connection ran out the command timeout";
  EXPECT_EQ(locked, 0);
  EXPECT_LT(monotonic_ms() - started, 300);
}

TEST_F(Faults, ContentionSurvivesConnectionKills) {
  ContentionSetup setup;
  setup.url = server().url();
  setup.name = kName;
  setup.processes = 2;
  setup.threads = 2;
  setup.cycles = 40;
  setup.watchdog_timeout_ms = 2000;
  // Sections of 2-5 ms keep the run going for a second or more, so the
  // killer, which strikes every 20 ms, hits connections in use.
  setup.min_sleep_us = 2000;
  setup.max_sleep_us = 5000;
  ContentionRun run(setup);
  std::atomic<bool> done{false};
  std::atomic<long long> killed{0};
  std::thread killer([&] {
    while (!done.load()) {
      killed += server().command({"CLIENT", "KILL", "TYPE", "normal"}).integer;
      std::this_thread::sleep_for(milliseconds(20));
    }
  });
  const std::string failures = run.wait(milliseconds(100000));
  done = true;
  killer.join();
  EXPECT_GT(killed.load(), 0) << "no connection was killed: the test proved nothing";
  ASSERT_EQ(failures, "");
  const std::vector<Section> sections = run.sections();
  EXPECT_EQ(sections.size(), static_cast<size_t>(setup.processes * setup.threads * setup.cycles));
  const SafetyReport report = check_sections(sections);
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_EQ(run.store().value, static_cast<long long>(sections.size()));
  EXPECT_FALSE(key_exists(server(), kName)) << "a key was left behind";
}

}  // namespace
}  // namespace dlock_test
