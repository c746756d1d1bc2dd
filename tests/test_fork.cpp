// A client opened before fork() works in the child on fresh connections and a new
// client id, and leaves the parent's holds alone.
#include <gtest/gtest.h>

#include "dlock.h"
#include "forked_child.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

class Fork : public RedisFixture {};

TEST_F(Fork, ChildUsesTheClientOnItsOwn) {
#ifdef __SANITIZE_THREAD__
  // glibc hands the child's new threads the ids of the parent's threads, which
  // TSan still counts as alive after fork ("dup thread with used id").
  GTEST_SKIP() << "TSan cannot follow threads started in a child of a multithreaded fork";
#endif
  ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "parent");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  const auto fields = hash_fields(server(), "parent");

  EXPECT_EQ(run_forked_child_checks(client.get(), lock.get(), "child"), "");
  EXPECT_FALSE(key_exists(server(), "child")) << "closing the child's client did not release its lock";
  EXPECT_EQ(hash_fields(server(), "parent"), fields) << "the child touched the parent's hold";
  int held = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), "parent"));
}

}  // namespace
}  // namespace dlock_test
