// The fair lock: grants in arrival order at the server, a release that hands
// the lock to the head of the queue and wakes it alone, dead waiters and dead
// granted heads skipped within their windows, and the safety checker over
// many grants across processes.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "contention_run.hpp"
#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "safety_checker.hpp"
#include "status_assertions.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"
#include "worker_launcher.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "fair";
const char* const kQueue = "dlock_fair_queue:{fair}";
constexpr int64_t kLongLeaseMs = 30000;
// The scripts' grant window (src/backends/redis/lua/fair_lock/queue.lua) and the bound on a
// dead waiter's stay in the queue (backends/redis/wait_heartbeat.hpp).
constexpr int64_t kGrantLeaseMs = 2000;
constexpr int64_t kDeadWaiterGoneMs = 1000;

class FairLock : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    holder_client_ = open();
    waiter_client_ = open();
    holder_ = new_fair_lock(holder_client_.get(), kName);
    waiter_ = new_fair_lock(waiter_client_.get(), kName);
  }
  // The clients go before their server, so closing releases at once.
  void TearDown() override {
    waiter_.reset();
    holder_.reset();
    waiter_client_.reset();
    holder_client_.reset();
    RedisFixture::TearDown();
  }

  long long queued() { return server().command({"ZCARD", kQueue}).integer; }

  // A worker process that waits for the fair lock, holds it `hold_ms`, and
  // says "acquired <token>" on its output.
  std::unique_ptr<ChildProcess> start_waiter_process(int index, int64_t hold_ms = 20) {
    return start_hold_worker(
        {server().url(), kName, dir_.file("store"), "", "fair", hold_ms, {"--lease-ms", "10000"}},
        output(index));
  }
  std::string output(int index) const { return dir_.file("waiter-" + std::to_string(index) + ".out"); }

  // Starts the worker and waits until the server has queued it.
  std::unique_ptr<ChildProcess> queue_waiter_process(int index) {
    const long long before = queued();
    auto worker = start_waiter_process(index);
    EXPECT_TRUE(wait_until([&] { return queued() == before + 1; }, milliseconds(10000)))
        << "waiter " << index << " never queued";
    return worker;
  }

  // Worker processes of `kind` (ContentionSetup::kind) cycling on the lock,
  // judged by the checker and the fenced store; no key is left behind.
  void run_contention(const std::string& kind, int cycles) {
    ContentionSetup setup;
    setup.url = server().url();
    setup.name = kName;
    setup.kind = kind;
    setup.processes = 4;
    setup.threads = 2;
    setup.cycles = cycles;
    ContentionRun run(setup);
    ASSERT_EQ(run.wait(milliseconds(50000)), "");

    const std::vector<Section> sections = run.sections();
    ASSERT_EQ(sections.size(), static_cast<size_t>(setup.processes * setup.threads * setup.cycles));
    const SafetyReport report = check_sections(sections);
    EXPECT_TRUE(report.clean()) << report.summary();
    const FencedStoreState store = run.store();
    EXPECT_EQ(store.stale_rejections, 0);
    EXPECT_EQ(store.value, static_cast<long long>(sections.size())) << "lost updates";
    EXPECT_FALSE(key_exists(server(), kName));
    EXPECT_FALSE(key_exists(server(), kQueue));
  }

  // A waiter process queued behind the holder is stopped by `stop_signal`
  // (killed or paused): it leaves the queue within a second, so the release then
  // goes straight to the waiter queued after it.
  void dead_waiter_leaves_the_queue(int stop_signal) {
    ASSERT_TRUE(
        status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
    auto doomed = queue_waiter_process(0);
    auto survivor = acquire_in_background(waiter_.get(), 2, -1);
    ASSERT_TRUE(wait_until([&] { return queued() == 2; }, milliseconds(5000)));

    doomed->signal(stop_signal);
    const int64_t stopped_ns = monotonic_ns();
    ASSERT_TRUE(wait_until([&] { return queued() == 1; }, milliseconds(5000)));
    const int64_t gone_ms = ms_between(stopped_ns, monotonic_ns());
    RecordProperty("dead_waiter_gone_ms", std::to_string(gone_ms));
    // Plus scheduling jitter on a loaded host (and the sanitizers' builds).
    EXPECT_LE(gone_ms, kDeadWaiterGoneMs + 500);

    // The release now goes straight to the survivor.
    const int64_t released_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
    ASSERT_EQ(survivor.wait_for(milliseconds(5000)), std::future_status::ready);
    const AcquireOutcome outcome = survivor.get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_LT(ms_between(released_ns, outcome.returned_ns), 400);
    doomed->kill_and_reap();
  }

  TempDir dir_;
  ClientHandle holder_client_;
  ClientHandle waiter_client_;
  LockHandle holder_;
  LockHandle waiter_;
};

TEST_F(FairLock, ProcessesAreGrantedInTheirOrderOfArrival) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  constexpr int kWaiters = 6;
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (int index = 0; index < kWaiters; ++index) workers.push_back(queue_waiter_process(index));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));

  std::vector<uint64_t> tokens;
  for (int index = 0; index < kWaiters; ++index) {
    const std::optional<std::string> token = wait_for_output(output(index), "acquired", milliseconds(20000));
    ASSERT_TRUE(token) << "waiter " << index << ": " << read_text_file(output(index));
    tokens.push_back(std::stoull(*token));
  }
  for (int index = 1; index < kWaiters; ++index) {
    EXPECT_GT(tokens[index], tokens[index - 1])
        << "waiter " << index << " was granted before an earlier arrival";
  }
  for (auto& worker : workers) ASSERT_TRUE(worker->wait_for(milliseconds(10000)));
  EXPECT_FALSE(key_exists(server(), kName));
  EXPECT_FALSE(key_exists(server(), kQueue));
}

TEST_F(FairLock, AKilledWaiterLeavesTheQueueWithinASecond) {
  dead_waiter_leaves_the_queue(SIGKILL);
}

// Its heartbeat stops with it: the queue drops it as it drops a dead one.
TEST_F(FairLock, APausedWaiterLeavesTheQueueWithinASecond) {
  dead_waiter_leaves_the_queue(SIGSTOP);
}

TEST_F(FairLock, AHeadKilledAfterItsGrantFreesTheLockWithinTheGrantLease) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  auto doomed = queue_waiter_process(0);
  auto next = acquire_in_background(waiter_.get(), 2, -1);
  ASSERT_TRUE(wait_until([&] { return queued() == 2; }, milliseconds(5000)));

  // Killed and released at once: the head still looks alive, so the release
  // grants it the lock, which it never takes.
  doomed->kill_and_reap();
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  EXPECT_EQ(hash_fields(server(), kName).size(), 1u);
  EXPECT_LE(pttl(server(), kName), kGrantLeaseMs);

  ASSERT_EQ(next.wait_for(milliseconds(10000)), std::future_status::ready);
  const AcquireOutcome outcome = next.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  const int64_t waited = ms_between(released_ns, outcome.returned_ns);
  EXPECT_GE(waited, kGrantLeaseMs - 100) << "the lock went on before the dead head's grant ran out";
  // The grant lease, then at most one heartbeat period before the next waiter's client sees it free.
  EXPECT_LE(waited, kGrantLeaseMs + 700);
}

TEST_F(FairLock, ManyGrantsAcrossProcessesPassTheChecker) {
  run_contention("fair", 25);
}

// Fair and reentrant locks on one name share the RLock hash: they exclude each other.
TEST_F(FairLock, FairAndReentrantLockProcessesOnOneNamePassTheChecker) {
  run_contention("mixed", 15);
}

TEST_F(FairLock, AReleaseWakesTheHeadAlone) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  constexpr int kWaiters = 8;
  std::vector<std::future<AcquireOutcome>> waiters;
  for (uint64_t owner = 10; owner < 10 + kWaiters; ++owner) {
    // A waiter that holds the lock a moment, so the others stay queued.
    waiters.push_back(std::async(std::launch::async, [&, owner] {
      AcquireOutcome outcome;
      outcome.status =
          dlock_lock_acquire_owner(waiter_.get(), owner, -1, kLongLeaseMs, nullptr, &outcome.token);
      outcome.returned_ns = monotonic_ns();
      std::this_thread::sleep_for(milliseconds(300));
      outcome.release_status = dlock_lock_release_owner(waiter_.get(), owner);
      return outcome;
    }));
    ASSERT_TRUE(
        wait_until([&] { return queued() == static_cast<long long>(owner - 9); }, milliseconds(5000)));
  }
  const long long scripts_before = command_calls(server(), "evalsha");
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  ASSERT_TRUE(wait_until([&] { return queued() == kWaiters - 1; }, milliseconds(2000)));
  std::this_thread::sleep_for(milliseconds(100));
  // The release, the head's confirmation, and the heartbeats of the waiters'
  // client (one per 500 ms; two when a sanitizer build stretches the window):
  // no attempt by the 7 others.
  EXPECT_LE(command_calls(server(), "evalsha") - scripts_before, 5);

  std::vector<uint64_t> tokens;
  for (auto& waiter : waiters) {
    const AcquireOutcome outcome = waiter.get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_TRUE(status_is(outcome.release_status, DLOCK_OK));
    tokens.push_back(outcome.token);
  }
  EXPECT_TRUE(std::is_sorted(tokens.begin(), tokens.end())) << "granted out of arrival order";
}

TEST_F(FairLock, OneAttemptNeitherQueuesNorJumpsTheQueue) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(queued(), 0);
  // A waiter that keeps the lock once it has it.
  auto queued_waiter = std::async(std::launch::async, [&] {
    return dlock_lock_acquire_owner(waiter_.get(), 3, -1, kLongLeaseMs, nullptr, nullptr);
  });
  ASSERT_TRUE(wait_until([&] { return queued() == 1; }, milliseconds(5000)));
  // The lock comes free with somebody waiting: a passer-by does not take it,
  // whether it comes before the waiter's own attempt (it grants the waiter) or after.
  ASSERT_TRUE(status_is(dlock_lock_force_release(holder_.get()), DLOCK_OK));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  ASSERT_EQ(queued_waiter.wait_for(milliseconds(3000)), std::future_status::ready);
  EXPECT_TRUE(status_is(queued_waiter.get(), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(waiter_.get(), 3), DLOCK_OK));
}

TEST_F(FairLock, AWaitThatRunsOutLeavesTheQueue) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  const int64_t started = monotonic_ns();
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 300, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  const int64_t waited = ms_between(started, monotonic_ns());
  EXPECT_GE(waited, 290);
  EXPECT_LT(waited, 1000);
  // Left at once (well before the dead-waiter window), by the client's heartbeat thread.
  EXPECT_TRUE(wait_until([&] { return queued() == 0; }, milliseconds(300)));
  EXPECT_FALSE(key_exists(server(), "dlock_fair_seen:{fair}"));
}

TEST_F(FairLock, CancelEndsAWaitPromptlyAndLeavesTheQueue) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  const CancelHandle cancel = new_cancel();
  auto waiter = std::async(std::launch::async, [&] {
    const int status = dlock_lock_acquire_owner(waiter_.get(), 2, -1, -1, cancel.get(), nullptr);
    return std::make_pair(status, monotonic_ns());
  });
  ASSERT_TRUE(wait_until([&] { return queued() == 1; }, milliseconds(5000)));
  const int64_t cancelled_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
  const auto [status, returned_ns] = waiter.get();
  EXPECT_TRUE(status_is(status, DLOCK_E_INTERRUPTED));
  EXPECT_LT(ms_between(cancelled_ns, returned_ns), 50);
  EXPECT_TRUE(wait_until([&] { return queued() == 0; }, milliseconds(300)));
}

TEST_F(FairLock, HandOffsGiveIncreasingTokensAndReentriesKeepTheirs) {
  uint64_t first = 0;
  uint64_t again = 0;
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, &first), DLOCK_OK));
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, &again), DLOCK_OK));
  EXPECT_EQ(again, first);
  int count = 0;
  ASSERT_TRUE(status_is(dlock_lock_hold_count_owner(holder_.get(), 1, &count), DLOCK_OK));
  EXPECT_EQ(count, 2);
  auto waiter = acquire_in_background(waiter_.get(), 2, -1);
  ASSERT_TRUE(wait_until([&] { return queued() == 1; }, milliseconds(5000)));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  EXPECT_EQ(waiter.wait_for(milliseconds(200)), std::future_status::timeout) << "granted while re-entered";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  const AcquireOutcome outcome = waiter.get();
  ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_GT(outcome.token, first);
  EXPECT_EQ(string_value(server(), fencing_counter_key(kName)), std::to_string(outcome.token));
}

TEST_F(FairLock, ExcludesTheReentrantLockOnTheSameName) {
  const LockHandle plain = new_lock(waiter_client_.get(), kName);
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(plain.get(), 2, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(plain.get(), 2, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  // A fair waiter queues behind a plain holder and gets the lock after its release.
  auto waiter = acquire_in_background(holder_.get(), 1, -1);
  ASSERT_TRUE(wait_until([&] { return queued() == 1; }, milliseconds(5000)));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(plain.get(), 2), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(2000)), std::future_status::ready);
  EXPECT_TRUE(status_is(waiter.get().status, DLOCK_OK));
}

TEST_F(FairLock, TheWatchdogKeepsAHandedOffHoldAndALapsedOneIsReported) {
  const ClientHandle short_leases = open(300);
  const LockHandle watched = new_fair_lock(short_leases.get(), kName);
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  auto waiter = std::async(std::launch::async, [&] {
    return dlock_lock_acquire_owner(watched.get(), 2, -1, -1, nullptr, nullptr);
  });
  ASSERT_TRUE(wait_until([&] { return queued() == 1; }, milliseconds(5000)));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  ASSERT_TRUE(status_is(waiter.get(), DLOCK_OK));
  // Handed off, confirmed, then renewed by the watchdog well past its 300 ms lease.
  std::this_thread::sleep_for(milliseconds(1000));
  EXPECT_TRUE(key_exists(server(), kName));
  EXPECT_GT(pttl(server(), kName), 0);
  ASSERT_TRUE(status_is(dlock_lock_release_owner(watched.get(), 2), DLOCK_OK));

  LostRecorder lost;
  lost.attach(waiter_.get());
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(waiter_.get(), 3, 0, 200, nullptr, nullptr), DLOCK_OK));
  EXPECT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(2000)));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(waiter_.get(), 3), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);
}

TEST_F(FairLock, BadInputIsRefusedByName) {
  dlock_lock* lock = nullptr;
  EXPECT_TRUE(status_is(dlock_fair_lock_new(nullptr, kName, &lock), DLOCK_E_INVALID));
  EXPECT_NE(std::string(dlock_last_error()).find("client"), std::string::npos);
  EXPECT_TRUE(status_is(dlock_fair_lock_new(holder_client_.get(), nullptr, &lock), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_fair_lock_new(holder_client_.get(), "", &lock), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_fair_lock_new(holder_client_.get(), "a}b", &lock), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_fair_lock_new(holder_client_.get(), kName, nullptr), DLOCK_E_INVALID));
  EXPECT_EQ(lock, nullptr);
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, -5, nullptr, nullptr), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_E_NOT_OWNER));
}

}  // namespace
}  // namespace dlock_test
