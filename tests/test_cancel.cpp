// A blocking acquire is cut short by a cancel token from another thread within
// 50 ms, and the cancelled waiter leaves nothing behind.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

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
    ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock_.get(), kHolder, 0, 20000, nullptr, nullptr), DLOCK_OK));
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

TEST_F(Cancel, UnboundedWaitReturnsInterruptedPromptly) { expect_prompt_cancel(-1); }

TEST_F(Cancel, BoundedWaitReturnsInterruptedPromptly) { expect_prompt_cancel(20000); }

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
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(lock_.get(), kWaiter, 0, 5000, cancel.get(), nullptr), DLOCK_OK));
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

TEST_F(Cancel, CancelStormLeavesNoKey) {
  for (int round = 0; round < 20; ++round) {
    const CancelHandle cancel = new_cancel();
    auto waiter = wait_in_background(-1, cancel.get());
    std::this_thread::sleep_for(milliseconds(round % 5));
    ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
    ASSERT_EQ(waiter.wait_for(milliseconds(5000)), std::future_status::ready);
    EXPECT_TRUE(status_is(waiter.get().status, DLOCK_E_INTERRUPTED)) << round;
  }
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock_.get(), kHolder), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_FALSE(key_exists(server(), "cancellable"));
}

}  // namespace
}  // namespace dlock_test
