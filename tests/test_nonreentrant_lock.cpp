// The non-reentrant lock on Redis (dlock_lock_new_nonreentrant): the
// reentrant lock's Redisson hash, but its holder is not let in again: its
// second acquire waits for the hold's release like another owner's.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
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

const char* const kName = "nonreentrant";

class NonReentrantLock : public RedisFixture {};

int hold_count(dlock_lock* lock, uint64_t owner) {
  int count = -1;
  EXPECT_TRUE(status_is(dlock_lock_hold_count_owner(lock, owner, &count), DLOCK_OK));
  return count;
}

TEST_F(NonReentrantLock, TheHoldersSecondAcquireIsRefusedAndItsWaitRunsOut) {
  const ClientHandle client = open();
  const LockHandle lock = new_nonreentrant_lock(client.get(), kName);
  uint64_t first = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &first), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_NOT_ACQUIRED));
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 300, -1, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_GE(monotonic_ms() - started, 290) << "the holder's wait ended before its wait_ms";
  EXPECT_EQ(hold_count(lock.get(), dlock_thread_owner()), 1);
  // Redisson's RLock layout: one field, one hold.
  const auto fields = hash_fields(server(), kName);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields.begin()->second, "1");
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_fencing_token(lock.get(), &token), DLOCK_OK));
  EXPECT_EQ(token, first) << "the refused acquires changed the hold";
  // One release ends the hold.
  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_EQ(hold_count(lock.get(), dlock_thread_owner()), 0);
  EXPECT_FALSE(key_exists(server(), kName));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER));
}

// As threading.Lock: the holder's own waiting acquire is granted once the hold
// is released (here through the owner's id from another thread).
TEST_F(NonReentrantLock, TheHoldersWaitingAcquireIsGrantedByItsRelease) {
  const ClientHandle client = open();
  const LockHandle lock = new_nonreentrant_lock(client.get(), kName);
  constexpr uint64_t owner = 7;
  uint64_t first = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), owner, 0, -1, nullptr, &first), DLOCK_OK));
  auto again = std::async(std::launch::async, [&] {
    uint64_t token = 0;
    const int status = dlock_lock_acquire_owner(lock.get(), owner, 10000, -1, nullptr, &token);
    return std::make_pair(status, token);
  });
  EXPECT_EQ(again.wait_for(milliseconds(300)), std::future_status::timeout) << "the holder was let in again";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock.get(), owner), DLOCK_OK));
  ASSERT_EQ(again.wait_for(milliseconds(5000)), std::future_status::ready) << "the release did not wake it";
  const auto [status, token] = again.get();
  ASSERT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_GT(token, first);
  EXPECT_EQ(hold_count(lock.get(), owner), 1);
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), owner), DLOCK_OK));
}

TEST_F(NonReentrantLock, AnotherClientWaitsForTheReleaseAndGetsALargerToken) {
  const ClientHandle a = open();
  const ClientHandle b = open();
  const LockHandle mine = new_nonreentrant_lock(a.get(), kName);
  const LockHandle theirs = new_nonreentrant_lock(b.get(), kName);
  // The reentrant lock (Redisson's RLock) on the name is excluded too.
  const LockHandle reentrant = new_lock(b.get(), kName);
  uint64_t first = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(mine.get(), 0, -1, &first), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_acquire(reentrant.get(), 0, -1, nullptr), DLOCK_NOT_ACQUIRED));
  auto waiting = std::async(std::launch::async, [&] {
    uint64_t token = 0;
    const int status = dlock_lock_acquire(theirs.get(), 10000, -1, &token);
    if (status == DLOCK_OK) EXPECT_TRUE(status_is(dlock_lock_release(theirs.get()), DLOCK_OK));
    return std::make_pair(status, token);
  });
  EXPECT_EQ(waiting.wait_for(milliseconds(300)), std::future_status::timeout) << "granted while held";
  ASSERT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_OK));
  const auto [status, token] = waiting.get();
  ASSERT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_GT(token, first);
}

// Threads sharing one owner id (an object-owned lock: Python's
// thread_local=False) exclude each other too: their acquires may reach the
// server together, and the server refuses the second under the owner's field.
TEST_F(NonReentrantLock, ThreadsSharingAnOwnerNeverHoldItTogether) {
  const ClientHandle client = open();
  const LockHandle lock = new_nonreentrant_lock(client.get(), kName);
  constexpr uint64_t owner = 7;
  constexpr int threads = 3;
  constexpr int cycles = 100;
  std::atomic<int> inside{0};
  std::atomic<int> overlaps{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      for (int i = 0; i < cycles; ++i) {
        if (dlock_lock_acquire_owner(lock.get(), owner, 10000, -1, nullptr, nullptr) != DLOCK_OK) {
          ++failures;
          return;
        }
        if (inside.fetch_add(1) != 0) ++overlaps;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        inside.fetch_sub(1);
        if (dlock_lock_release_owner(lock.get(), owner) != DLOCK_OK) ++failures;
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  EXPECT_EQ(failures.load(), 0) << dlock_last_error();
  EXPECT_EQ(overlaps.load(), 0) << "two threads of one owner held it at once";
  EXPECT_FALSE(key_exists(server(), kName));
}

}  // namespace
}  // namespace dlock_test
