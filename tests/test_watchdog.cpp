// A5/C6: the watchdog keeps a -1 lease alive while held and not a moment after;
// a hold that disappears on the server is reported once, and release says LOST.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "watched";
constexpr int64_t kWatchdogMs = 1000;

class Watchdog : public RedisFixture {};

TEST_F(Watchdog, KeepsALongHoldAliveAndStopsAtRelease) {
  const ClientHandle client = open(kWatchdogMs);
  const LockHandle lock = new_lock(client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  const long long initial = pttl(server(), kName);
  EXPECT_GT(initial, kWatchdogMs - 200);
  EXPECT_LE(initial, kWatchdogMs);

  long long lowest = initial;
  const int64_t until = monotonic_ms() + 5 * kWatchdogMs;
  while (monotonic_ms() < until) {
    const long long remaining = pttl(server(), kName);
    ASSERT_GT(remaining, 0) << "the key expired during a watchdog hold";
    lowest = std::min(lowest, remaining);
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_GE(lowest, kWatchdogMs / 3 - 100) << "renewals come late";
  EXPECT_EQ(lost.calls(), 0);
  int held = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 1);

  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  const long long renewals_before = renewal_calls(server());
  const int64_t quiet_until = monotonic_ms() + 3 * kWatchdogMs;
  while (monotonic_ms() < quiet_until) {
    ASSERT_FALSE(key_exists(server(), kName)) << "the lock came back after its release";
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(renewal_calls(server()) - renewals_before, 0) << "something still renews a released lock";
}

TEST_F(Watchdog, RenewsEveryHeldLock) {
  const ClientHandle client = open(kWatchdogMs);
  std::vector<LockHandle> locks;
  for (int i = 0; i < 20; ++i) {
    locks.push_back(new_lock(client.get(), "watched-" + std::to_string(i)));
    ASSERT_TRUE(status_is(dlock_lock_acquire(locks.back().get(), 0, -1, nullptr), DLOCK_OK));
  }
  std::this_thread::sleep_for(milliseconds(3 * kWatchdogMs));
  for (int i = 0; i < 20; ++i) {
    EXPECT_GT(pttl(server(), "watched-" + std::to_string(i)), kWatchdogMs / 3 - 100) << i;
  }
  for (const LockHandle& lock : locks) EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

// The key vanishes (deleted, or expired early as after a server clock jump) while
// the holder works.
class LostWhileHeld : public Watchdog, public ::testing::WithParamInterface<const char*> {
 protected:
  void make_key_vanish() {
    if (std::string(GetParam()) == "del") {
      ASSERT_EQ(server().command({"DEL", kName}).integer, 1);
    } else {
      ASSERT_EQ(server().command({"PEXPIRE", kName, "1"}).integer, 1);
    }
  }
};

TEST_P(LostWhileHeld, CallbackFiresOnceAndReleaseSaysLost) {
  const ClientHandle client = open(kWatchdogMs);
  const LockHandle lock = new_lock(client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock.get()), DLOCK_OK));
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &token), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(100));
  make_key_vanish();
  const int64_t vanished_ms = monotonic_ms();
  ASSERT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(3 * kWatchdogMs)))
      << "the loss was never reported";
  EXPECT_LE(monotonic_ms() - vanished_ms, kWatchdogMs / 3 + 500) << "reported later than the next renewal";
  EXPECT_EQ(lost.last_token(), token);
  EXPECT_EQ(lost.last_owner(), dlock_thread_owner());
  int held = 1;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0);
  std::this_thread::sleep_for(milliseconds(kWatchdogMs));
  EXPECT_EQ(lost.calls(), 1);
  EXPECT_FALSE(key_exists(server(), kName)) << "the watchdog resurrected a lost lock";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);

  uint64_t next = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &next), DLOCK_OK))
      << "a lost lock can be retaken";
  EXPECT_GT(next, token);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

TEST_P(LostWhileHeld, AnotherHolderIsNeverTouched) {
  const ClientHandle client = open(kWatchdogMs);
  const ClientHandle rival_client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  const LockHandle rival = new_lock(rival_client.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  make_key_vanish();
  std::this_thread::sleep_for(milliseconds(5));
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(rival.get(), 5, 2000, 20000, nullptr, nullptr), DLOCK_OK));
  const auto fields = hash_fields(server(), kName);
  std::this_thread::sleep_for(milliseconds(kWatchdogMs));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_LOST));
  EXPECT_EQ(hash_fields(server(), kName), fields);
  EXPECT_GT(pttl(server(), kName), 17000) << "the old holder's watchdog touched the rival's lease";
  EXPECT_TRUE(status_is(dlock_lock_release_owner(rival.get(), 5), DLOCK_OK));
}

INSTANTIATE_TEST_SUITE_P(Vanish, LostWhileHeld, ::testing::Values("del", "pexpire"));

}  // namespace
}  // namespace dlock_test
