// A7/A8: waiters sleep until a release message or the holder's lease runs out,
// never poll, and survive lost messages; bounded waits end on time.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "dlock.h"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "awaited";
constexpr int64_t kLongLeaseMs = 10000;
// Loopback hand-offs take a few ms; this bound only separates "woken" from "timed out".
constexpr int64_t kWakeBoundMs = 1000;

class Waiting : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    holder_client_ = open();
    waiter_client_ = open();
    holder_ = new_lock(holder_client_.get(), kName);
    waiter_ = new_lock(waiter_client_.get(), kName);
  }

  // The requests clients send to the server during `window`, as MONITOR shows
  // them: the commands a script runs are shown too, marked "lua", and are not
  // requests (INFO's total_commands_processed counts them all).
  int requests_during(milliseconds window) {
    RedisConnection monitor = server().connect();
    EXPECT_EQ(monitor.command({"MONITOR"}).str, "OK");
    const int64_t end_ns = monotonic_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(window).count();
    int requests = 0;
    while (monotonic_ns() < end_ns) {
      const std::optional<RedisReply> line = monitor.read_pushed();
      if (!line) break;
      if (line->str.find("[0 lua]") == std::string::npos) ++requests;
    }
    return requests;
  }

  ClientHandle holder_client_;
  ClientHandle waiter_client_;
  LockHandle holder_;
  LockHandle waiter_;
};

TEST_F(Waiting, BoundedWaitRunsOutOnTime) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  int64_t started = monotonic_ns();
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_LT(ms_between(started, monotonic_ns()), 500);
  started = monotonic_ns();
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(waiter_.get(), 2, 400, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  const int64_t waited = ms_between(started, monotonic_ns());
  EXPECT_GE(waited, 380);
  EXPECT_LT(waited, 1500);
}

TEST_F(Waiting, BoundedWaitSucceedsWhenTheLockFreesInTime) {
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
  auto waiter = acquire_in_background(waiter_.get(), 2, 3000);
  std::this_thread::sleep_for(milliseconds(200));
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  EXPECT_TRUE(status_is(waiter.get().status, DLOCK_OK));
}

TEST_F(Waiting, ReleaseWakesAWaiterPromptly) {
  for (int trial = 0; trial < 5; ++trial) {
    ASSERT_TRUE(
        status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kLongLeaseMs, nullptr, nullptr), DLOCK_OK));
    auto waiter = acquire_in_background(waiter_.get(), 2, -1, kLongLeaseMs);
    std::this_thread::sleep_for(milliseconds(200));
    ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout);
    const int64_t released_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
    ASSERT_EQ(waiter.wait_for(milliseconds(kLongLeaseMs + 2000)), std::future_status::ready);
    const AcquireOutcome outcome = waiter.get();
    ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_LT(ms_between(released_ns, outcome.returned_ns), kWakeBoundMs) << "trial " << trial;
  }
}

TEST_F(Waiting, ARedissonReleaseWakesAWaiter) {
  forge_foreign_holder(server(), kName, "c0ffee00-0000-4000-8000-000000000000:1", kLongLeaseMs);
  auto waiter = acquire_in_background(waiter_.get(), 2, -1);
  std::this_thread::sleep_for(milliseconds(300));
  ASSERT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout);
  const int64_t released_ns = monotonic_ns();
  EXPECT_GE(release_as_foreign_holder(server(), kName), 1) << "the waiter is not subscribed to the channel";
  ASSERT_EQ(waiter.wait_for(milliseconds(kLongLeaseMs + 2000)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), kWakeBoundMs);
}

TEST_F(Waiting, WaitersAcquireAfterTheirSubscriptionIsKilled) {
  constexpr int64_t kHolderLeaseMs = 3000;
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kHolderLeaseMs, nullptr, nullptr), DLOCK_OK));
  std::vector<std::future<AcquireOutcome>> waiters;
  for (uint64_t owner = 2; owner <= 3; ++owner)
    waiters.push_back(acquire_in_background(waiter_.get(), owner, -1));
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_GE(server().command({"CLIENT", "KILL", "TYPE", "pubsub"}).integer, 1) << "no subscriber to kill";
  const long long remaining = pttl(server(), kName);
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  for (auto& waiter : waiters) {
    ASSERT_EQ(waiter.wait_for(milliseconds(remaining + 3000)), std::future_status::ready);
    const AcquireOutcome outcome = waiter.get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_LT(ms_between(released_ns, outcome.returned_ns), remaining + 1500)
        << "a waiter that missed the release message must retry when the holder's lease runs out";
  }
}

TEST_F(Waiting, WaitersDoNotPoll) {
  constexpr int64_t kHolderLeaseMs = 6000;
  constexpr int kWaiters = 4;
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kHolderLeaseMs, nullptr, nullptr), DLOCK_OK));
  std::vector<std::future<AcquireOutcome>> waiters;
  for (uint64_t owner = 2; owner < 2 + kWaiters; ++owner) {
    waiters.push_back(acquire_in_background(waiter_.get(), owner, -1));
  }
  std::this_thread::sleep_for(milliseconds(500));
  // The waiters' client sends one heartbeat every 500 ms (a script call that
  // names them all): 4 or 5 in the window, whatever the number of waiters.
  const int requests = requests_during(milliseconds(2000));
  EXPECT_LT(requests, 20) << kWaiters << " waiters sent " << requests << " requests in 2 s of waiting";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(holder_.get(), 1), DLOCK_OK));
  for (auto& waiter : waiters) {
    ASSERT_EQ(waiter.wait_for(milliseconds(kHolderLeaseMs + 3000)), std::future_status::ready);
    EXPECT_TRUE(status_is(waiter.get().status, DLOCK_OK));
  }
}

TEST_F(Waiting, ExpiredHolderIsReplacedWithoutARelease) {
  constexpr int64_t kHolderLeaseMs = 700;
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kHolderLeaseMs, nullptr, nullptr), DLOCK_OK));
  const int64_t acquired_ns = monotonic_ns();
  auto waiter = acquire_in_background(waiter_.get(), 2, -1);
  ASSERT_EQ(waiter.wait_for(milliseconds(kHolderLeaseMs + 3000)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
  const int64_t waited = ms_between(acquired_ns, outcome.returned_ns);
  EXPECT_GE(waited, kHolderLeaseMs - 100) << "granted while the holder's lease was valid";
  EXPECT_LT(waited, kHolderLeaseMs + 1000);
}


// Every waiter of a client whose holder's lease runs out tries at once (no
// release names one): a thousand of them share the client's pool of 8
// connections, and none may fail for want of one (issue 20).
TEST_F(Waiting, AThousandWaitersOnOneClientAreAllGrantedWithoutRunningOutOfConnections) {
  constexpr int64_t kHolderLeaseMs = 1000;
  constexpr int kWaiters = 1000;
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_owner(holder_.get(), 1, 0, kHolderLeaseMs, nullptr, nullptr), DLOCK_OK));
  struct Outcome {
    int status = DLOCK_OK;
    std::string error;
  };
  std::vector<std::future<Outcome>> waiters;
  for (uint64_t owner = 2; owner < 2 + kWaiters; ++owner) {
    waiters.push_back(std::async(std::launch::async, [this, owner] {
      Outcome outcome;
      outcome.status = dlock_lock_acquire_owner(waiter_.get(), owner, 60000, kLongLeaseMs, nullptr, nullptr);
      if (outcome.status == DLOCK_OK) outcome.status = dlock_lock_release_owner(waiter_.get(), owner);
      if (outcome.status != DLOCK_OK) outcome.error = dlock_last_error();
      return outcome;
    }));
  }
  int granted = 0;
  std::string first_error;
  for (auto& waiter : waiters) {
    ASSERT_EQ(waiter.wait_for(milliseconds(60000)), std::future_status::ready);
    const Outcome outcome = waiter.get();
    if (outcome.status == DLOCK_OK) {
      ++granted;
    } else if (first_error.empty()) {
      first_error = outcome.error;
    }
  }
  EXPECT_EQ(granted, kWaiters) << "first failure: " << first_error;
}

}  // namespace
}  // namespace dlock_test
