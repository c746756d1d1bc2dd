// A10: the server may forget the scripts at any time (SCRIPT FLUSH, restart,
// failover); every operation falls back from EVALSHA to EVAL/SCRIPT LOAD.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "dlock.h"
#include "lost_recorder.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

class ScriptCache : public RedisFixture {
 protected:
  void flush_scripts() { ASSERT_EQ(server().command({"SCRIPT", "FLUSH"}).str, "OK"); }
};

TEST_F(ScriptCache, EveryOperationSurvivesAFlushBeforeIt) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "flushed");
  const LockHandle other = new_lock(client.get(), "flushed-too");
  for (int round = 0; round < 3; ++round) {
    flush_scripts();
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK)) << round;
    flush_scripts();
    EXPECT_TRUE(
        status_is(dlock_lock_acquire_owner(lock.get(), 5, 0, 5000, nullptr, nullptr), DLOCK_NOT_ACQUIRED))
        << "a flushed script cache turned a held lock into a free one";
    flush_scripts();
    int locked = 0;
    EXPECT_TRUE(status_is(dlock_lock_is_locked(lock.get(), &locked), DLOCK_OK));
    EXPECT_EQ(locked, 1);
    flush_scripts();
    ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK)) << round;
    EXPECT_FALSE(key_exists(server(), "flushed"));
    ASSERT_TRUE(status_is(dlock_lock_acquire(other.get(), 0, 5000, nullptr), DLOCK_OK));
    flush_scripts();
    EXPECT_TRUE(status_is(dlock_lock_force_release(lock.get()), DLOCK_OK));
    EXPECT_TRUE(status_is(dlock_lock_force_release(other.get()), DLOCK_OK));
    EXPECT_FALSE(key_exists(server(), "flushed-too"));
  }
}

TEST_F(ScriptCache, RenewalSurvivesFlushes) {
  constexpr int64_t kWatchdogMs = 900;
  const ClientHandle client = open(kWatchdogMs);
  const LockHandle lock = new_lock(client.get(), "renewed");
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  for (int i = 0; i < 8; ++i) {
    flush_scripts();
    std::this_thread::sleep_for(std::chrono::milliseconds(kWatchdogMs / 4));
    ASSERT_GT(pttl(server(), "renewed"), 0) << "the lease ran out: renewal failed after SCRIPT FLUSH";
  }
  EXPECT_EQ(lost.calls(), 0);
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

}  // namespace
}  // namespace dlock_test
