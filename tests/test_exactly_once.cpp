// Issue 20, item 4: a call that fails ambiguously (the server stalled past the
// command timeout, so the request may still run when it resumes) is applied
// exactly once or not at all, and a bounded call keeps its bound. Each case
// stalls the server with DEBUG SLEEP longer than the client's command timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "dlock.h"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "semaphore_handles.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

constexpr int64_t kCommandTimeoutMs = 1000;
constexpr int kStallSeconds = 2;  // longer than the command timeout
// How long the client may take to settle a failed request once the server is
// back: a few retry delays, with a wide margin.
constexpr auto kSettledWithin = milliseconds(5000);
constexpr uint64_t kNextOwner = 7;

class ExactlyOnce : public RedisFixtureWithConfig {
 protected:
  ExactlyOnce() : RedisFixtureWithConfig({"enable-debug-command local"}) {}

  ClientHandle open_impatient() {
    dlock_client_options options = default_options();
    options.command_timeout_ms = kCommandTimeoutMs;
    return open_client(server().url(), options);
  }

  // Stalls the server on a connection of its own, and returns once the stall
  // has begun; the future ends with it.
  std::future<void> stall_server() {
    auto connection = std::make_shared<RedisConnection>(server().connect());
    auto stall = std::async(std::launch::async, [connection] {
      connection->command({"DEBUG", "SLEEP", std::to_string(kStallSeconds)});
    });
    std::this_thread::sleep_for(milliseconds(100));
    return stall;
  }

  // Loads the scripts, so that the stalled call sends the request itself (a
  // script load that times out sends nothing).
  static void warm_up(dlock_semaphore* semaphore) {
    require_ok(dlock_semaphore_acquire(semaphore, 1, 0, nullptr), "acquire");
    require_ok(dlock_semaphore_release(semaphore, 1), "release");
  }
  static int64_t available(dlock_semaphore* semaphore) {
    int64_t permits = -1;
    require_ok(dlock_semaphore_available_permits(semaphore, &permits), "available_permits");
    return permits;
  }
  static int64_t available(dlock_permit_semaphore* semaphore) {
    int64_t permits = -1;
    require_ok(dlock_permit_semaphore_available_permits(semaphore, &permits), "available_permits");
    return permits;
  }
};

int64_t elapsed_ms(int64_t since_ns) {
  return (monotonic_ns() - since_ns) / 1000000;
}

TEST_F(ExactlyOnce, SemaphoreAcquireThatFailedGivesItsPermitBack) {
  const ClientHandle client = open_impatient();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), "permits");
  int set = 0;
  require_ok(dlock_semaphore_try_set_permits(semaphore.get(), 1, &set), "try_set_permits");
  warm_up(semaphore.get());

  std::future<void> stall = stall_server();
  const int status = dlock_semaphore_acquire(semaphore.get(), 1, 0, nullptr);
  stall.get();
  ASSERT_LT(status, 0) << "the acquire should fail on the stalled server, got " << describe_status(status);

  // The acquire ran when the server resumed; the caller was told it failed,
  // so the permit must come back (plain permits have no lease).
  EXPECT_TRUE(wait_until([&] { return available(semaphore.get()) == 1; }, kSettledWithin))
      << "available permits: " << available(semaphore.get());
}

TEST_F(ExactlyOnce, SemaphoreReleaseRetriedAfterAnErrorAddsItsPermitsOnce) {
  const ClientHandle client = open_impatient();
  const SemaphoreHandle semaphore = new_semaphore(client.get(), "permits");
  int set = 0;
  require_ok(dlock_semaphore_try_set_permits(semaphore.get(), 2, &set), "try_set_permits");
  warm_up(semaphore.get());
  require_ok(dlock_semaphore_acquire(semaphore.get(), 1, 0, nullptr), "acquire");

  std::future<void> stall = stall_server();
  const int failed = dlock_semaphore_release(semaphore.get(), 1);
  stall.get();
  ASSERT_LT(failed, 0) << "the release should fail on the stalled server, got " << describe_status(failed);

  // The caller retries its release, as the error invites it to.
  const int retried = dlock_semaphore_release(semaphore.get(), 1);
  EXPECT_EQ(retried, DLOCK_OK) << describe_status(retried);
  EXPECT_EQ(available(semaphore.get()), 2);
  // Nothing adds it again later either.
  std::this_thread::sleep_for(milliseconds(1500));
  EXPECT_EQ(available(semaphore.get()), 2);
}

TEST_F(ExactlyOnce, LatchCountDownRetriedAfterAnErrorCountsOnce) {
  const ClientHandle client = open_impatient();
  const LatchHandle latch = new_latch(client.get(), "latch");
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(latch.get(), 3, &set), "try_set_count");
  require_ok(dlock_count_down_latch_count_down(latch.get()), "count_down");  // loads the script: 2 left

  std::future<void> stall = stall_server();
  const int failed = dlock_count_down_latch_count_down(latch.get());
  stall.get();
  ASSERT_LT(failed, 0) << "the count down should fail on the stalled server, got " << describe_status(failed);

  const int retried = dlock_count_down_latch_count_down(latch.get());
  EXPECT_EQ(retried, DLOCK_OK) << describe_status(retried);
  int64_t count = -1;
  require_ok(dlock_count_down_latch_get_count(latch.get(), &count), "get_count");
  EXPECT_EQ(count, 1) << "one logical count down of a count-2 latch";
}

TEST_F(ExactlyOnce, LeasedPermitAcquireThatFailedIsWithdrawn) {
  const ClientHandle client = open_impatient();
  const PermitSemaphoreHandle semaphore = new_permit_semaphore(client.get(), "leased");
  int set = 0;
  require_ok(dlock_permit_semaphore_try_set_permits(semaphore.get(), 1, &set), "try_set_permits");
  char id[DLOCK_PERMIT_ID_SIZE] = {};
  // Loads the scripts: the stalled call must be the request itself.
  require_ok(dlock_permit_semaphore_acquire(semaphore.get(), 0, 30000, nullptr, id, sizeof id), "acquire");
  require_ok(dlock_permit_semaphore_release(semaphore.get(), id), "release");

  std::future<void> stall = stall_server();
  const int status = dlock_permit_semaphore_acquire(semaphore.get(), 0, 30000, nullptr, id, sizeof id);
  stall.get();
  ASSERT_LT(status, 0) << "the acquire should fail on the stalled server, got " << describe_status(status);

  // Granted late to nobody: the permit must not stay out for its 30 s lease.
  EXPECT_TRUE(wait_until([&] { return available(semaphore.get()) == 1; }, kSettledWithin))
      << "available permits: " << available(semaphore.get());
}

TEST_F(ExactlyOnce, FairLockAcquireThatFailedLeavesNoGhostInTheQueue) {
  const ClientHandle holder_client = open_impatient();
  const ClientHandle ghost_client = open_impatient();
  const ClientHandle next_client = open_impatient();
  const LockHandle holder = new_fair_lock(holder_client.get(), "fair");
  const LockHandle ghost = new_fair_lock(ghost_client.get(), "fair");
  const LockHandle next = new_fair_lock(next_client.get(), "fair");
  require_ok(dlock_lock_acquire(holder.get(), 0, 60000, nullptr), "holder acquire");

  std::future<void> stall = stall_server();
  const int status = dlock_lock_acquire(ghost.get(), 500, 60000, nullptr);
  stall.get();
  ASSERT_LT(status, 0) << "the acquire should fail on the stalled server, got " << describe_status(status);

  // The next waiter queues after the failed one's late attempt; the holder lets go.
  auto waiter = std::async(std::launch::async, [&] {
    const int got = dlock_lock_acquire_owner(next.get(), kNextOwner, 10000, 60000, nullptr, nullptr);
    return std::make_pair(got, monotonic_ns());
  });
  std::this_thread::sleep_for(milliseconds(300));
  const int64_t released_ns = monotonic_ns();
  require_ok(dlock_lock_release(holder.get()), "holder release");
  const auto [got, granted_ns] = waiter.get();
  ASSERT_EQ(got, DLOCK_OK) << describe_status(got);
  EXPECT_LT((granted_ns - released_ns) / 1000000, 1000) << "the next waiter was held back by a ghost";
  require_ok(dlock_lock_release_owner(next.get(), kNextOwner), "next release");
}

TEST_F(ExactlyOnce, LatchAwaitKeepsItsBoundOnAStalledServer) {
  const ClientHandle client = open_impatient();
  const LatchHandle latch = new_latch(client.get(), "latch");
  int set = 0;
  require_ok(dlock_count_down_latch_try_set_count(latch.get(), 1, &set), "try_set_count");

  std::future<void> stall = stall_server();
  const int64_t started = monotonic_ns();
  const int status = dlock_count_down_latch_await(latch.get(), 500, nullptr);
  const int64_t took = elapsed_ms(started);
  stall.get();
  EXPECT_NE(status, DLOCK_OK) << describe_status(status);
  // The bound plus one command timeout, and room for scheduling.
  EXPECT_LT(took, 500 + kCommandTimeoutMs + 400);
}

TEST_F(ExactlyOnce, MultiLockTryKeepsItsBoundOnAStalledServer) {
  const ClientHandle client = open_impatient();
  const LockHandle first = new_lock(client.get(), "first");
  const LockHandle second = new_lock(client.get(), "second");
  dlock_lock* members[] = {first.get(), second.get()};
  dlock_multilock* raw = nullptr;
  require_ok(dlock_multilock_new(members, 2, &raw), "multilock_new");
  const MultiLockHandle group(raw);

  std::future<void> stall = stall_server();
  const int64_t started = monotonic_ns();
  const int status = dlock_multilock_acquire(group.get(), 0, 60000);
  const int64_t took = elapsed_ms(started);
  stall.get();
  EXPECT_NE(status, DLOCK_OK) << describe_status(status);
  EXPECT_LT(took, kCommandTimeoutMs + 400) << "a try gets one command timeout";
}

}  // namespace
}  // namespace dlock_test
