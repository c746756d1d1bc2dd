// A4: a fixed lease is never renewed; when it runs out another owner gets the
// lock, and the late holder learns it lost the lock (status and callback).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "background_acquire.hpp"
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

const char* const kName = "leased";
constexpr int64_t kLeaseMs = 500;
constexpr uint64_t kSecondOwner = 2;

class LeaseExpiry : public RedisFixture {};

TEST_F(LeaseExpiry, NextOwnerGetsTheLockWhenTheLeaseRunsOut) {
  const ClientHandle first_client = open();
  const ClientHandle second_client = open();
  const LockHandle first = new_lock(first_client.get(), kName);
  const LockHandle second = new_lock(second_client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(first.get()), DLOCK_OK));

  uint64_t first_token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(first.get(), 0, kLeaseMs, &first_token), DLOCK_OK));
  const int64_t acquired_ms = monotonic_ms();
  uint64_t second_token = 0;
  ASSERT_TRUE(status_is(
      dlock_lock_acquire_owner(second.get(), kSecondOwner, 5000, 20000, nullptr, &second_token), DLOCK_OK));
  const int64_t waited = monotonic_ms() - acquired_ms;
  EXPECT_GE(waited, kLeaseMs - 100) << "granted while the first lease was valid";
  EXPECT_LT(waited, kLeaseMs + 1000);
  EXPECT_GT(second_token, first_token);
  const auto fields = hash_fields(server(), kName);

  EXPECT_TRUE(status_is(dlock_lock_release(first.get()), DLOCK_E_LOST));
  EXPECT_TRUE(status_is(dlock_lock_release(first.get()), DLOCK_E_NOT_OWNER)) << "the lost hold is forgotten";
  EXPECT_EQ(hash_fields(server(), kName), fields) << "the late release touched the new holder's hold";
  int held = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_held_owner(second.get(), kSecondOwner, &held), DLOCK_OK));
  EXPECT_EQ(held, 1);

  EXPECT_TRUE(wait_until([&] { return lost.calls() > 0; }, milliseconds(2000))) << "no lost callback";
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(lost.calls(), 1);
  EXPECT_EQ(lost.last_token(), first_token);
  EXPECT_EQ(lost.last_owner(), dlock_thread_owner());
  EXPECT_TRUE(status_is(dlock_lock_release_owner(second.get(), kSecondOwner), DLOCK_OK));
}

TEST_F(LeaseExpiry, AnExpiredHoldIsNotHeld) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 300, nullptr), DLOCK_OK));
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_FALSE(key_exists(server(), kName));
  int held = 1;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0) << "the client believes in a lease the server has dropped";
  EXPECT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(2000)));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);
}

TEST_F(LeaseExpiry, FixedLeaseIsNotRenewed) {
  const ClientHandle client = open(600);
  const LockHandle lock = new_lock(client.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 1500, nullptr), DLOCK_OK));
  long long previous = pttl(server(), kName);
  for (int i = 0; i < 10; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    const long long now = pttl(server(), kName);
    EXPECT_LT(now, previous) << "a fixed lease was renewed";
    previous = now;
  }
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

}  // namespace
}  // namespace dlock_test
