// A latch or a semaphore whose key a Redis restart without persistence wiped
// (as a failover that lost the last writes would): the loss is told, never
// taken for success, and a semaphore can be set again.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "dlock.h"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "shards";

class VanishedKeys : public RedisFixture {
 protected:
  // Every key gone, as after a crash of a server that persists nothing.
  void restart_without_persistence() {
    server().kill9();
    server().restart();
    ASSERT_FALSE(key_exists(server(), kName));
  }
};

std::future<int> await_in_background(dlock_count_down_latch* latch) {
  return std::async(std::launch::async,
                    [latch] { return dlock_count_down_latch_await(latch, 20000, nullptr); });
}

int64_t available(dlock_semaphore* semaphore) {
  int64_t out = -1;
  require_ok(dlock_semaphore_available_permits(semaphore, &out), "available_permits");
  return out;
}

TEST_F(VanishedKeys, LatchWaiterLearnsTheCountVanished) {
  const ClientHandle waiter_client = open();
  const ClientHandle coordinator_client = open();
  const LatchHandle waiting = new_latch(waiter_client.get(), kName);
  const LatchHandle coordinator = new_latch(coordinator_client.get(), kName);
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(coordinator.get(), 3, &set), "try_set_count");
  std::future<int> waiter = await_in_background(waiting.get());
  std::this_thread::sleep_for(milliseconds(300));

  restart_without_persistence();

  ASSERT_EQ(waiter.wait_for(milliseconds(10000)), std::future_status::ready) << "the waiter slept on";
  EXPECT_TRUE(status_is(waiter.get(), DLOCK_E_LOST)) << "no count down opened the latch, its key vanished";
}

TEST_F(VanishedKeys, LatchCountedDownByRedissonStillOpens) {
  const ClientHandle client = open();
  const LatchHandle waiting = new_latch(client.get(), kName);
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(waiting.get(), 1, &set), "try_set_count");
  std::future<int> waiter = await_in_background(waiting.get());
  std::this_thread::sleep_for(milliseconds(300));
  // Redisson's countDown at zero: DEL and the "zero" message, no dlock marker.
  server().command({"DEL", kName});
  server().command({"PUBLISH", std::string("redisson_countdownlatch__channel__{") + kName + "}", "0"});
  ASSERT_EQ(waiter.wait_for(milliseconds(10000)), std::future_status::ready) << "the waiter slept on";
  EXPECT_TRUE(status_is(waiter.get(), DLOCK_OK));
}

TEST_F(VanishedKeys, LatchCountedDownWhileTheWaiterMissedTheMessageStillOpens) {
  const ClientHandle client = open();
  const LatchHandle latch = new_latch(client.get(), kName);
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(latch.get(), 1, &set), "try_set_count");
  std::future<int> waiter = await_in_background(latch.get());
  std::this_thread::sleep_for(milliseconds(300));
  // The count down's message goes unheard: the waiter's subscription is cut
  // first, and on resubscribing it finds the latch at zero, opened.
  server().command({"CLIENT", "KILL", "TYPE", "pubsub"});
  require_ok(dlock_count_down_latch_count_down(latch.get()), "count_down");
  ASSERT_EQ(waiter.wait_for(milliseconds(10000)), std::future_status::ready) << "the waiter slept on";
  EXPECT_TRUE(status_is(waiter.get(), DLOCK_OK));
}

TEST_F(VanishedKeys, ReleaseIntoAVanishedSemaphoreIsALossAndTrySetPermitsRepairs) {
  const ClientHandle client = open();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  int set = 0;
  require_ok(dlock_semaphore_try_set_permits(semaphore.get(), 2, &set), "try_set_permits");
  require_ok(dlock_semaphore_acquire(semaphore.get(), 1, 0, nullptr), "acquire");

  restart_without_persistence();

  EXPECT_EQ(available(semaphore.get()), 0);
  EXPECT_TRUE(status_is(dlock_semaphore_release(semaphore.get(), 1), DLOCK_E_LOST));
  EXPECT_NE(std::string(dlock_last_error()).find("vanished"), std::string::npos) << dlock_last_error();
  EXPECT_FALSE(key_exists(server(), kName)) << "the lost permit made a semaphore of 1";
  require_ok(dlock_semaphore_try_set_permits(semaphore.get(), 2, &set), "try_set_permits");
  EXPECT_EQ(set, 1) << "try_set_permits refused to set the vanished semaphore again";
  EXPECT_EQ(available(semaphore.get()), 2);
}

TEST_F(VanishedKeys, ReleaseOfPermitsNotTakenStillAddsThem) {
  // As in Redisson: a release into a semaphore never set creates it.
  const ClientHandle client = open();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  require_ok(dlock_semaphore_release(semaphore.get(), 2), "release");
  EXPECT_EQ(available(semaphore.get()), 2);
}

}  // namespace
}  // namespace dlock_test
