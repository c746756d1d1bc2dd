// A3: only the owner releases; any other owner gets DLOCK_E_NOT_OWNER and the
// key (fields and lease) is left exactly as it was.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>

#include "dlock.h"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

const char* const kName = "owned";
constexpr int64_t kLeaseMs = 20000;

class Ownership : public RedisFixture {
 protected:
  // Asserts the key still has `fields` and a lease no longer than before.
  void expect_untouched(const std::map<std::string, std::string>& fields, long long pttl_before) {
    EXPECT_EQ(hash_fields(server(), kName), fields);
    const long long now = pttl(server(), kName);
    EXPECT_GT(now, 0);
    EXPECT_LE(now, pttl_before) << "the lease was extended by a non-owner";
    EXPECT_GT(now, pttl_before - 2000) << "the lease was shortened by a non-owner";
  }
};

TEST_F(Ownership, OtherOwnersCannotRelease) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, kLeaseMs, nullptr), DLOCK_OK));
  const auto fields = hash_fields(server(), kName);
  const long long lease = pttl(server(), kName);

  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 99), DLOCK_E_NOT_OWNER));
  std::thread([&] { EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER)); }).join();
  expect_untouched(fields, lease);

  int held = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
}

TEST_F(Ownership, AnotherClientWithTheSameThreadCannotRelease) {
  const ClientHandle holder = open();
  const ClientHandle stranger = open();
  const LockHandle mine = new_lock(holder.get(), kName);
  const LockHandle theirs = new_lock(stranger.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(mine.get(), 0, kLeaseMs, nullptr), DLOCK_OK));
  const auto fields = hash_fields(server(), kName);
  const long long lease = pttl(server(), kName);

  EXPECT_TRUE(status_is(dlock_lock_release(theirs.get()), DLOCK_E_NOT_OWNER));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(theirs.get(), dlock_thread_owner()), DLOCK_E_NOT_OWNER));
  EXPECT_TRUE(status_is(dlock_lock_acquire(theirs.get(), 0, kLeaseMs, nullptr), DLOCK_NOT_ACQUIRED))
      << "a second client re-entered the first client's hold";
  int held = 1;
  EXPECT_TRUE(status_is(dlock_lock_is_held(theirs.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0);
  expect_untouched(fields, lease);
  EXPECT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_OK));
}

TEST_F(Ownership, AForeignHolderIsNeverReleased) {
  forge_foreign_holder(server(), kName, "c0ffee00-0000-4000-8000-000000000000:1", kLeaseMs);
  const auto fields = hash_fields(server(), kName);
  const long long lease = pttl(server(), kName);
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, kLeaseMs, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_NOT_OWNER));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 1), DLOCK_E_NOT_OWNER));
  expect_untouched(fields, lease);
}

TEST_F(Ownership, ForceReleaseTakesTheLockFromItsHolder) {
  const ClientHandle holder = open();
  const ClientHandle admin = open();
  const LockHandle mine = new_lock(holder.get(), kName);
  const LockHandle any = new_lock(admin.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(mine.get(), 0, kLeaseMs, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_force_release(any.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
  EXPECT_TRUE(status_is(dlock_lock_force_release(any.get()), DLOCK_OK)) << "force release of a free lock";
  EXPECT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_E_LOST)) << "the former holder learns of it";
  EXPECT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_E_NOT_OWNER)) << "a lost hold is forgotten";
  int released = -1;
  EXPECT_TRUE(status_is(dlock_lock_force_release_checked(any.get(), &released), DLOCK_OK));
  EXPECT_EQ(released, 0) << "a free lock was reported as released";
  ASSERT_TRUE(status_is(dlock_lock_acquire(mine.get(), 0, kLeaseMs, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_force_release_checked(any.get(), &released), DLOCK_OK));
  EXPECT_EQ(released, 1);
  EXPECT_TRUE(invalid_naming(dlock_lock_force_release_checked(any.get(), nullptr), "released_out"));
  EXPECT_TRUE(status_is(dlock_lock_release(mine.get()), DLOCK_E_LOST));
}

}  // namespace
}  // namespace dlock_test
