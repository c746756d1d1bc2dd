// Handles: free in any order, free and close release what is still held, calls
// after close return DLOCK_E_CLOSED, close wakes waiters.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class Lifecycle : public RedisFixture {};

TEST_F(Lifecycle, FreeingALockHandleReleasesItsHolds) {
  const ClientHandle client = open();
  LockHandle lock = new_lock(client.get(), "freed");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(lock.get(), 3, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  lock.reset();
  EXPECT_FALSE(key_exists(server(), "freed"));
  const LockHandle again = new_lock(client.get(), "freed");
  EXPECT_TRUE(status_is(dlock_lock_acquire(again.get(), 0, 5000, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(again.get()), DLOCK_OK));
}

// dlock_lock_holds_through counts the holds a free would end: those whose
// outermost acquire went through the handle, not re-entries through another.
TEST_F(Lifecycle, AHandleSaysWhetherFreeingItWouldEndAHold) {
  const ClientHandle client = open();
  LockHandle first = new_lock(client.get(), "through");
  LockHandle second = new_lock(client.get(), "through");
  int holds = -1;
  ASSERT_TRUE(status_is(dlock_lock_holds_through(first.get(), &holds), DLOCK_OK));
  EXPECT_EQ(holds, 0);
  ASSERT_TRUE(status_is(dlock_lock_acquire(first.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(second.get(), 0, -1, nullptr), DLOCK_OK)) << "a re-entry";
  ASSERT_TRUE(status_is(dlock_lock_holds_through(first.get(), &holds), DLOCK_OK));
  EXPECT_EQ(holds, 1);
  ASSERT_TRUE(status_is(dlock_lock_holds_through(second.get(), &holds), DLOCK_OK));
  EXPECT_EQ(holds, 0);
  second.reset();
  EXPECT_TRUE(key_exists(server(), "through")) << "freeing a handle nothing is held through ends nothing";
  ASSERT_TRUE(status_is(dlock_lock_release(first.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_holds_through(first.get(), &holds), DLOCK_OK));
  EXPECT_EQ(holds, 1) << "one re-entry left";
  ASSERT_TRUE(status_is(dlock_lock_release(first.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_holds_through(first.get(), &holds), DLOCK_OK));
  EXPECT_EQ(holds, 0);
  EXPECT_TRUE(invalid_naming(dlock_lock_holds_through(first.get(), nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_lock_holds_through(nullptr, &holds), "lock"));
}

TEST_F(Lifecycle, ClosingAClientReleasesItsLocks) {
  ClientHandle client = open();
  const LockHandle watched = new_lock(client.get(), "watched");
  const LockHandle leased = new_lock(client.get(), "leased");
  ASSERT_TRUE(status_is(dlock_lock_acquire(watched.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(leased.get(), 9, 0, 20000, nullptr, nullptr), DLOCK_OK));
  client.reset();
  EXPECT_FALSE(key_exists(server(), "watched"));
  EXPECT_FALSE(key_exists(server(), "leased"));
}

TEST_F(Lifecycle, CallsAfterCloseReturnClosed) {
  ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "orphan");
  dlock_lock* l = lock.get();
  client.reset();
  int flag = 0;
  int64_t ms = 0;
  uint64_t token = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire(l, 0, 5000, &token), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_acquire(l, -1, -1, &token), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(l, 1, -1, -1, nullptr, &token), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_release(l), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(l, 1), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_force_release(l), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_is_locked(l, &flag), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_is_held(l, &flag), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_is_held_owner(l, 1, &flag), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_hold_count(l, &flag), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_hold_count_owner(l, 1, &flag), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_fencing_token(l, &token), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_fencing_token_owner(l, 1, &token), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_lock_ttl(l, &ms), DLOCK_E_CLOSED));
  LostRecorder recorder;
  EXPECT_TRUE(status_is(recorder.attach(l), DLOCK_E_CLOSED));
  EXPECT_STREQ(dlock_lock_name(l), "orphan") << "the name stays valid for the handle's lifetime";
  EXPECT_TRUE(status_is(dlock_lock_new(nullptr, "x", nullptr), DLOCK_E_INVALID));
}

TEST_F(Lifecycle, HandlesFreeInAnyOrder) {
  for (int order = 0; order < 3; ++order) {
    ClientHandle client = open();
    std::vector<LockHandle> locks;
    for (int i = 0; i < 4; ++i) locks.push_back(new_lock(client.get(), "any-order-" + std::to_string(i)));
    ASSERT_TRUE(status_is(dlock_lock_acquire(locks[1].get(), 0, -1, nullptr), DLOCK_OK));
    ASSERT_TRUE(status_is(dlock_lock_acquire(locks[2].get(), 0, 5000, nullptr), DLOCK_OK));
    if (order == 0) locks.clear();
    if (order == 1) locks[1].reset();
    client.reset();
    locks.clear();
    for (int i = 0; i < 4; ++i) EXPECT_FALSE(key_exists(server(), "any-order-" + std::to_string(i))) << order;
  }
}

TEST_F(Lifecycle, ManyHandlesCreatedAndFreed) {
  const ClientHandle client = open();
  for (int i = 0; i < 2000; ++i) {
    const LockHandle lock = new_lock(client.get(), "churn-" + std::to_string(i % 17));
    if (i % 100 == 0) {
      ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK));
      ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
    }
  }
}

TEST_F(Lifecycle, CloseWakesWaitersWithClosed) {
  const ClientHandle holder = open();
  const LockHandle held = new_lock(holder.get(), "contended");
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, 20000, nullptr), DLOCK_OK));

  ClientHandle waiter_client = open();
  const LockHandle waiting = new_lock(waiter_client.get(), "contended");
  std::vector<std::future<int>> waiters;
  for (uint64_t owner = 1; owner <= 3; ++owner) {
    waiters.push_back(std::async(std::launch::async, [&, owner] {
      return dlock_lock_acquire_owner(waiting.get(), owner, -1, -1, nullptr, nullptr);
    }));
  }
  std::this_thread::sleep_for(milliseconds(300));
  for (auto& waiter : waiters) ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout);
  const int64_t closing = monotonic_ms();
  waiter_client.reset();
  for (auto& waiter : waiters) {
    ASSERT_EQ(waiter.wait_for(milliseconds(2000)), std::future_status::ready)
        << "close did not wake a waiter";
    EXPECT_TRUE(status_is(waiter.get(), DLOCK_E_CLOSED));
  }
  EXPECT_LT(monotonic_ms() - closing, 2000);
  EXPECT_EQ(hash_fields(server(), "contended").size(), 1u) << "the holder's hold was touched";
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
}

}  // namespace
}  // namespace dlock_test
