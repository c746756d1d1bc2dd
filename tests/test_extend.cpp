// dlock_lock_extend: a fixed lease made longer or shorter by its holder only.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "dlock.h"
#include "dlock_handles.hpp"
#include "lost_recorder.hpp"
#include "redis_fixture.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

class Extend : public RedisFixture {};

TEST_F(Extend, LengthensAFixedLeaseAndTheClientTrustsItLonger) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "extend-longer");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 300, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_extend(lock.get(), 5000), DLOCK_OK));
  EXPECT_GT(server().command({"PTTL", "extend-longer"}).integer, 4000);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // past the first lease
  int held = 0;
  ASSERT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 1) << "the client still believed the first lease";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

TEST_F(Extend, ShortensAFixedLease) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "extend-shorter");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 60000, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_extend(lock.get(), 1000), DLOCK_OK));
  EXPECT_LE(server().command({"PTTL", "extend-shorter"}).integer, 1000);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

TEST_F(Extend, OnlyTheHolderExtendsAndNeverALostHold) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "extend-owner");
  EXPECT_TRUE(status_is(dlock_lock_extend(lock.get(), 1000), DLOCK_E_NOT_OWNER));
  LostRecorder lost;
  lost.attach(lock.get());
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 1, 0, 5000, nullptr, nullptr), DLOCK_OK));
  const long long before = server().command({"PTTL", "extend-owner"}).integer;
  EXPECT_TRUE(status_is(dlock_lock_extend_owner(lock.get(), 2, 60000), DLOCK_E_NOT_OWNER));
  EXPECT_LE(server().command({"PTTL", "extend-owner"}).integer, before);
  // Taken away under the holder: the extension finds it gone and says so once.
  server().command({"DEL", "extend-owner"});
  EXPECT_TRUE(status_is(dlock_lock_extend_owner(lock.get(), 1, 60000), DLOCK_E_LOST));
  EXPECT_EQ(server().command({"EXISTS", "extend-owner"}).integer, 0) << "the extension resurrected the lock";
  EXPECT_EQ(lost.calls(), 1);
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 1), DLOCK_E_LOST));
}

TEST_F(Extend, AWatchdogHoldOrABadLeaseIsRefused) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "extend-bad");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_TRUE(invalid_naming(dlock_lock_extend(lock.get(), 1000), "lease_ms"));
  for (const int64_t lease : {int64_t{0}, int64_t{-1}, DLOCK_DURATION_MAX_MS + 1}) {
    EXPECT_TRUE(invalid_naming(dlock_lock_extend(lock.get(), lease), "lease_ms")) << lease;
  }
  EXPECT_TRUE(invalid_naming(dlock_lock_extend(nullptr, 1000), "lock"));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

}  // namespace
}  // namespace dlock_test
