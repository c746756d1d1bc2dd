// The semaphore (Redisson RSemaphore layout): permits, event-driven waits,
// cancel, bad input.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

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

const char* const kName = "slots";

int set_permits(dlock_semaphore* semaphore, int permits) {
  int set = -1;
  require_ok(dlock_semaphore_try_set_permits(semaphore, permits, &set), "try_set_permits");
  return set;
}

int64_t available(dlock_semaphore* semaphore) {
  int64_t out = -1;
  require_ok(dlock_semaphore_available_permits(semaphore, &out), "available_permits");
  return out;
}

class SemaphoreTest : public RedisFixture {};

TEST_F(SemaphoreTest, PermitsAreCountedInRedissonsLayout) {
  const ClientHandle client = open();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  EXPECT_EQ(available(semaphore.get()), 0);
  EXPECT_EQ(set_permits(semaphore.get(), 3), 1);
  EXPECT_EQ(set_permits(semaphore.get(), 5), 0) << "try_set_permits changed an existing semaphore";
  EXPECT_EQ(string_value(server(), kName), "3");

  EXPECT_TRUE(status_is(dlock_semaphore_acquire(semaphore.get(), 2, 0, nullptr), DLOCK_OK));
  EXPECT_EQ(string_value(server(), kName), "1");
  EXPECT_TRUE(status_is(dlock_semaphore_acquire(semaphore.get(), 2, 0, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(available(semaphore.get()), 1) << "a refused acquire took permits";
  EXPECT_TRUE(status_is(dlock_semaphore_release(semaphore.get(), 2), DLOCK_OK));
  EXPECT_EQ(available(semaphore.get()), 3);
}

TEST_F(SemaphoreTest, ReleaseWakesWaitersWithoutPolling) {
  const ClientHandle client = open();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  set_permits(semaphore.get(), 0);
  // Two waiters, each wanting one permit; one release of two wakes both.
  std::vector<std::thread> waiters;
  std::atomic<int> granted{0};
  std::atomic<int64_t> last_grant_ns{0};
  for (int i = 0; i < 2; ++i) {
    waiters.emplace_back([&] {
      if (dlock_semaphore_acquire(semaphore.get(), 1, 10000, nullptr) == DLOCK_OK) {
        ++granted;
        last_grant_ns = monotonic_ns();
      }
    });
  }
  std::this_thread::sleep_for(milliseconds(300));
  const long long attempts_before = command_calls(server(), "evalsha");
  std::this_thread::sleep_for(milliseconds(700));
  EXPECT_LE(command_calls(server(), "evalsha") - attempts_before, 0) << "blocked waiters polled the server";
  const int64_t released_ns = monotonic_ns();
  require_ok(dlock_semaphore_release(semaphore.get(), 2), "release");
  for (std::thread& waiter : waiters) waiter.join();
  EXPECT_EQ(granted.load(), 2);
  EXPECT_LT((last_grant_ns.load() - released_ns) / 1000000, 500)
      << "the waiters were not woken by the release";
  EXPECT_EQ(available(semaphore.get()), 0);
}

TEST_F(SemaphoreTest, ReleaseFromAnotherClientWakesTheWaiter) {
  const ClientHandle waiter_client = open();
  const ClientHandle releaser_client = open();
  const SemaphoreHandle waiting = new_semaphore(waiter_client.get(), kName);
  const SemaphoreHandle releasing = new_semaphore(releaser_client.get(), kName);
  set_permits(waiting.get(), 0);
  std::thread releaser([&] {
    std::this_thread::sleep_for(milliseconds(300));
    require_ok(dlock_semaphore_release(releasing.get(), 1), "release");
  });
  const int64_t start = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_semaphore_acquire(waiting.get(), 1, 5000, nullptr), DLOCK_OK));
  EXPECT_LT((monotonic_ns() - start) / 1000000, 1500);
  releaser.join();
}

TEST_F(SemaphoreTest, BoundedWaitRunsOut) {
  const ClientHandle client = open();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  set_permits(semaphore.get(), 1);
  const int64_t start = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_semaphore_acquire(semaphore.get(), 2, 300, nullptr), DLOCK_NOT_ACQUIRED));
  const int64_t waited_ms = (monotonic_ns() - start) / 1000000;
  EXPECT_GE(waited_ms, 290);
  EXPECT_LT(waited_ms, 1000);
}

TEST_F(SemaphoreTest, CancelInterruptsAWaitPromptly) {
  const ClientHandle client = open();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  EXPECT_TRUE(cancel_ends_wait_promptly(
      [&](dlock_cancel* cancel) { return dlock_semaphore_acquire(semaphore.get(), 1, -1, cancel); }));
}

TEST_F(SemaphoreTest, CloseWakesWaiters) {
  ClientHandle client = open();
  dlock_semaphore* semaphore = nullptr;
  require_ok(dlock_semaphore_new(client.get(), kName, &semaphore), "new");
  std::atomic<int> status{1000};
  std::thread waiter([&] { status = dlock_semaphore_acquire(semaphore, 1, -1, nullptr); });
  std::this_thread::sleep_for(milliseconds(300));
  client.reset();
  waiter.join();
  EXPECT_TRUE(status_is(status.load(), DLOCK_E_CLOSED));
  EXPECT_TRUE(status_is(dlock_semaphore_release(semaphore, 1), DLOCK_E_CLOSED));
  dlock_semaphore_free(semaphore);
}

TEST_F(SemaphoreTest, WrongTypeIsAProtocolErrorAndTheKeyIsUntouched) {
  const ClientHandle client = open();
  server().command({"HSET", kName, "f", "v"});
  const SemaphoreHandle semaphore = new_semaphore(client.get(), kName);
  EXPECT_TRUE(status_is(dlock_semaphore_acquire(semaphore.get(), 1, 0, nullptr), DLOCK_E_PROTOCOL));
  int64_t out = 0;
  EXPECT_TRUE(status_is(dlock_semaphore_available_permits(semaphore.get(), &out), DLOCK_E_PROTOCOL));
  EXPECT_EQ(hash_fields(server(), kName).at("f"), "v");
}

TEST_F(SemaphoreTest, BadInputIsRefusedNamingTheArgument) {
  const ClientHandle client = open();
  dlock_semaphore* semaphore = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_semaphore_new(nullptr, kName, &semaphore), "client"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_new(client.get(), nullptr, &semaphore), "name"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_new(client.get(), "", &semaphore), "name"));
  EXPECT_TRUE(
      invalid_naming(dlock_semaphore_new(client.get(), std::string(2000, 'x').c_str(), &semaphore), "name"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_new(client.get(), "{x}", &semaphore), "name"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_new(client.get(), kName, nullptr), "out"));
  const SemaphoreHandle good = new_semaphore(client.get(), kName);
  EXPECT_TRUE(invalid_naming(dlock_semaphore_acquire(good.get(), 0, 0, nullptr), "permits"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_acquire(good.get(), -3, 0, nullptr), "permits"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_acquire(good.get(), 1, -2, nullptr), "wait_ms"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_acquire(nullptr, 1, 0, nullptr), "semaphore"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_release(good.get(), 0), "permits"));
  int set = 0;
  EXPECT_TRUE(invalid_naming(dlock_semaphore_try_set_permits(good.get(), -1, &set), "permits"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_try_set_permits(good.get(), 1, nullptr), "set_out"));
  EXPECT_TRUE(invalid_naming(dlock_semaphore_available_permits(good.get(), nullptr), "out"));
  dlock_semaphore_free(nullptr);
  EXPECT_FALSE(key_exists(server(), kName)) << "refused calls wrote to the server";
}

}  // namespace
}  // namespace dlock_test
