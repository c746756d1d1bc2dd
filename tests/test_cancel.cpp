// A blocking acquire is cut short by a cancel token from another thread within
// 50 ms, and cancelled waiters, however many and however often, leave nothing
// behind.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dlock.h"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

constexpr uint64_t kHolder = 1;
constexpr uint64_t kWaiter = 2;
constexpr int64_t kCancelLatencyMs = 50;

class Cancel : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    client_ = open();
    lock_ = new_lock(client_.get(), "cancellable");
    ASSERT_TRUE(
        status_is(dlock_lock_acquire_owner(lock_.get(), kHolder, 0, 20000, nullptr, nullptr), DLOCK_OK));
  }

  struct Outcome {
    int status;
    int64_t returned_ns;
  };

  std::future<Outcome> wait_in_background(int64_t wait_ms, dlock_cancel* cancel) {
    return std::async(std::launch::async, [=] {
      const int status = dlock_lock_acquire_owner(lock_.get(), kWaiter, wait_ms, -1, cancel, nullptr);
      return Outcome{status, monotonic_ns()};
    });
  }

  // Cancels a waiter that is already asleep and checks it returned in time.
  void expect_prompt_cancel(int64_t wait_ms) {
    const CancelHandle cancel = new_cancel();
    auto waiter = wait_in_background(wait_ms, cancel.get());
    std::this_thread::sleep_for(milliseconds(300));
    ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "the waiter did not wait";
    const int64_t triggered_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
    ASSERT_EQ(waiter.wait_for(milliseconds(5000)), std::future_status::ready);
    const Outcome outcome = waiter.get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_E_INTERRUPTED));
    EXPECT_LT(ms_between(triggered_ns, outcome.returned_ns), kCancelLatencyMs);
  }

  ClientHandle client_;
  LockHandle lock_;
};

TEST_F(Cancel, UnboundedWaitReturnsInterruptedPromptly) {
  expect_prompt_cancel(-1);
}

TEST_F(Cancel, BoundedWaitReturnsInterruptedPromptly) {
  expect_prompt_cancel(20000);
}

TEST_F(Cancel, ATriggerBeforeTheWaitIsNotLostUntilReset) {
  const CancelHandle cancel = new_cancel();
  ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(lock_.get(), kWaiter, -1, -1, cancel.get(), nullptr),
                        DLOCK_E_INTERRUPTED));
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(lock_.get(), kWaiter, 5000, -1, cancel.get(), nullptr),
                        DLOCK_E_INTERRUPTED));
  EXPECT_LT(monotonic_ms() - started, 1000);
  ASSERT_TRUE(status_is(dlock_cancel_reset(cancel.get()), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(lock_.get(), kWaiter, 200, -1, cancel.get(), nullptr),
                        DLOCK_NOT_ACQUIRED));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock_.get(), kHolder), DLOCK_OK));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(lock_.get(), kWaiter, 0, 5000, cancel.get(), nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock_.get(), kWaiter), DLOCK_OK));
}

TEST_F(Cancel, ACancelledWaiterLeavesNothingBehind) {
  const auto fields = hash_fields(server(), "cancellable");
  expect_prompt_cancel(-1);
  EXPECT_EQ(hash_fields(server(), "cancellable"), fields);
  int count = -1;
  EXPECT_TRUE(status_is(dlock_lock_hold_count_owner(lock_.get(), kWaiter, &count), DLOCK_OK));
  EXPECT_EQ(count, 0);
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock_.get(), kHolder), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_FALSE(key_exists(server(), "cancellable")) << "the cancelled waiter took the lock later";
}

// A6: waiters cancelled in a tight loop while another owner holds the lock under
// the watchdog; once the holder releases, nothing may keep or renew the key.
class CancelStorm : public RedisFixture {
 protected:
  static constexpr int64_t kWatchdogMs = 1000;
  static constexpr int kWaiters = 4;
  static constexpr auto kStorm = milliseconds(3000);
};

TEST_F(CancelStorm, CancelledWaitersLeaveNoKeyAndNoRenewals) {
  const ClientHandle holder_client = open(kWatchdogMs);
  const ClientHandle waiter_client = open(kWatchdogMs);
  const LockHandle held = new_lock(holder_client.get(), "stormy");
  const LockHandle contested = new_lock(waiter_client.get(), "stormy");
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(held.get(), kHolder, 0, -1, nullptr, nullptr), DLOCK_OK));
  const auto holder_fields = hash_fields(server(), "stormy");

  std::vector<CancelHandle> cancels;
  for (int i = 0; i < kWaiters; ++i) cancels.push_back(new_cancel());
  std::atomic<bool> storming{true};
  std::atomic<bool> waiters_done{false};
  std::atomic<long> interrupted{0};
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> waiters;
  for (int i = 0; i < kWaiters; ++i) {
    waiters.emplace_back([&, i] {
      // Unbounded and bounded waits, watchdog and fixed leases.
      const int64_t wait_ms = i % 2 == 0 ? -1 : 5000;
      const int64_t lease_ms = i < 2 ? -1 : 10000;
      const uint64_t owner = 100 + static_cast<uint64_t>(i);
      while (storming) {
        const int status =
            dlock_lock_acquire_owner(contested.get(), owner, wait_ms, lease_ms, cancels[i].get(), nullptr);
        dlock_cancel_reset(cancels[i].get());
        if (status == DLOCK_E_INTERRUPTED) {
          ++interrupted;
          continue;
        }
        const std::lock_guard<std::mutex> guard(failures_mutex);
        failures.push_back("waiter " + std::to_string(i) + ": " + describe_status(status));
        if (status == DLOCK_OK) dlock_lock_release_owner(contested.get(), owner);
      }
    });
  }
  std::thread canceller([&] {
    for (unsigned round = 0; !waiters_done; ++round) {
      for (const CancelHandle& cancel : cancels) dlock_cancel_trigger(cancel.get());
      std::this_thread::sleep_for(std::chrono::microseconds(200 * (round % 8)));
    }
  });
  std::this_thread::sleep_for(kStorm);
  storming = false;
  for (std::thread& waiter : waiters) waiter.join();
  waiters_done = true;
  canceller.join();

  EXPECT_TRUE(failures.empty()) << failures.size()
                                << " acquires ended otherwise, first: " << failures.front();
  EXPECT_GT(interrupted.load(), 100) << "the storm hardly ran";
  EXPECT_EQ(hash_fields(server(), "stormy"), holder_fields) << "a cancelled waiter left a field behind";
  for (int i = 0; i < kWaiters; ++i) {
    int count = -1;
    EXPECT_TRUE(status_is(dlock_lock_hold_count_owner(contested.get(), 100 + i, &count), DLOCK_OK));
    EXPECT_EQ(count, 0) << "waiter " << i << " believes it holds";
  }

  // Nothing renews once the holder released: the waiters' client never held
  // (a watchdog hold left by a cancelled waiter would renew every period), and
  // the holder's watchdog may finish one batch it had under way. The waiters'
  // entries are taken off the server in the background, so the server's
  // command counts are no measure here.
  const dlock_client_stats waiters_before = client_stats(waiter_client.get());
  ASSERT_TRUE(status_is(dlock_lock_release_owner(held.get(), kHolder), DLOCK_OK));
  const dlock_client_stats holder_released = client_stats(holder_client.get());
  const int64_t quiet_until = monotonic_ms() + 3 * kWatchdogMs;
  while (monotonic_ms() < quiet_until) {
    ASSERT_FALSE(key_exists(server(), "stormy")) << "the lock came back after the storm and the release";
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(client_stats(waiter_client.get()).renewal_round_trips, waiters_before.renewal_round_trips)
      << "a cancelled waiter's hold is renewed";
  EXPECT_LE(client_stats(holder_client.get()).renewal_round_trips - holder_released.renewal_round_trips, 1u)
      << "the released hold is still renewed";
  EXPECT_FALSE(key_exists(server(), "dlock_waiting:{stormy}")) << "a cancelled waiter is still queued";
  EXPECT_FALSE(key_exists(server(), "dlock_waiting:{stormy}:until")) << "a cancelled waiter is still queued";
}

}  // namespace
}  // namespace dlock_test
