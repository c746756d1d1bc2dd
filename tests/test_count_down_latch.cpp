// The count-down latch (Redisson RCountDownLatch layout): counts, waits that
// wake on zero without polling, cancel, bad input.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "cancel_check.hpp"
#include "dlock.h"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "gate";

int64_t count_of(dlock_count_down_latch* latch) {
  int64_t out = -1;
  require_ok(dlock_count_down_latch_get_count(latch, &out), "get_count");
  return out;
}

class LatchTest : public RedisFixture {};

TEST_F(LatchTest, CountsDownInRedissonsLayout) {
  const ClientHandle client = open();
  const LatchHandle latch = new_latch(client.get(), kName);
  EXPECT_EQ(count_of(latch.get()), 0);
  int set = -1;
  require_ok(dlock_count_down_latch_try_set_count(latch.get(), 2, &set), "try_set_count");
  EXPECT_EQ(set, 1);
  require_ok(dlock_count_down_latch_try_set_count(latch.get(), 7, &set), "try_set_count");
  EXPECT_EQ(set, 0) << "try_set_count changed an existing latch";
  EXPECT_EQ(string_value(server(), kName), "2");
  require_ok(dlock_count_down_latch_count_down(latch.get()), "count_down");
  EXPECT_EQ(count_of(latch.get()), 1);
  EXPECT_TRUE(status_is(dlock_count_down_latch_await(latch.get(), 0, nullptr), DLOCK_NOT_ACQUIRED));
  require_ok(dlock_count_down_latch_count_down(latch.get()), "count_down");
  EXPECT_FALSE(key_exists(server(), kName)) << "an open latch keeps its key (Redisson deletes it)";
  EXPECT_TRUE(status_is(dlock_count_down_latch_await(latch.get(), 0, nullptr), DLOCK_OK));
}

TEST_F(LatchTest, ZeroWakesEveryWaiterWithoutPolling) {
  const ClientHandle waiters_client = open();
  const ClientHandle counter_client = open();
  const LatchHandle waiting = new_latch(waiters_client.get(), kName);
  const LatchHandle counting = new_latch(counter_client.get(), kName);
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(counting.get(), 1, &set), "try_set_count");
  std::vector<std::thread> waiters;
  std::atomic<int> opened{0};
  std::atomic<int64_t> last_open_ns{0};
  for (int i = 0; i < 3; ++i) {
    waiters.emplace_back([&] {
      if (dlock_count_down_latch_await(waiting.get(), 20000, nullptr) == DLOCK_OK) {
        ++opened;
        last_open_ns = monotonic_ns();
      }
    });
  }
  std::this_thread::sleep_for(milliseconds(300));
  const long long reads_before = command_calls(server(), "get");
  std::this_thread::sleep_for(milliseconds(1000));
  EXPECT_EQ(command_calls(server(), "get") - reads_before, 0) << "blocked waiters polled the count";
  const int64_t counted_ns = monotonic_ns();
  require_ok(dlock_count_down_latch_count_down(counting.get()), "count_down");
  for (std::thread& waiter : waiters) waiter.join();
  EXPECT_EQ(opened.load(), 3);
  EXPECT_LT((last_open_ns.load() - counted_ns) / 1000000, 500) << "the waiters did not wake on zero";
}

TEST_F(LatchTest, CancelInterruptsAWaitPromptly) {
  const ClientHandle client = open();
  const LatchHandle latch = new_latch(client.get(), kName);
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(latch.get(), 1, &set), "try_set_count");
  EXPECT_TRUE(cancel_ends_wait_promptly(
      [&](dlock_cancel* cancel) { return dlock_count_down_latch_await(latch.get(), -1, cancel); }));
}

TEST_F(LatchTest, BadInputIsRefusedNamingTheArgument) {
  const ClientHandle client = open();
  dlock_count_down_latch* latch = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_new(nullptr, kName, &latch), "client"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_new(client.get(), "", &latch), "name"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_new(client.get(), nullptr, &latch), "name"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_new(client.get(), kName, nullptr), "out"));
  const LatchHandle good = new_latch(client.get(), kName);
  int set = 0;
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_try_set_count(good.get(), 0, &set), "count"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_try_set_count(good.get(), 1, nullptr), "set_out"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_get_count(good.get(), nullptr), "out"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_await(good.get(), -5, nullptr), "wait_ms"));
  EXPECT_TRUE(invalid_naming(dlock_count_down_latch_count_down(nullptr), "latch"));
  dlock_count_down_latch_free(nullptr);
  EXPECT_FALSE(key_exists(server(), kName));
}

}  // namespace
}  // namespace dlock_test
