// dlock_lock_acquire_async and dlock_lock_release_async: outcomes through the
// callback, waiting without a thread per waiter, cancel, close, bad input.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "async_completion.hpp"
#include "dlock.h"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class Async : public RedisFixture {};

TEST_F(Async, AcquireAndReleaseReportThroughTheCallback) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "async-basic");
  Completion acquired;
  std::future<Outcome> grant = acquired.future();
  ASSERT_TRUE(status_is(
      dlock_lock_acquire_async(lock.get(), 11, 0, -1, nullptr, Completion::on_done, &acquired), DLOCK_OK));
  const Outcome outcome = grant.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK)) << outcome.message;
  EXPECT_GT(outcome.token, 0u);
  int held = 0;
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(lock.get(), 11, &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_EQ(server().command({"EXISTS", "async-basic"}).integer, 1);

  Completion released;
  std::future<Outcome> release = released.future();
  ASSERT_TRUE(status_is(dlock_lock_release_async(lock.get(), 11, Completion::on_done, &released), DLOCK_OK));
  EXPECT_TRUE(status_is(release.get().status, DLOCK_OK));
  EXPECT_EQ(server().command({"EXISTS", "async-basic"}).integer, 0);
  EXPECT_EQ(acquired.calls() + released.calls(), 2) << "a callback ran more than once";
}

// A re-entry is counted before anything is built for a wait, with no round
// trip, and still reported on the client's async thread, never the caller's.
TEST_F(Async, AReentryReportsTheHoldsTokenOnTheAsyncThread) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "async-reentry");
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 7, 0, -1, nullptr, &token), DLOCK_OK));
  struct Reentry {
    std::promise<std::pair<int, uint64_t>> outcome;
    std::thread::id thread;
  } reentry;
  std::future<std::pair<int, uint64_t>> reported = reentry.outcome.get_future();
  ASSERT_TRUE(status_is(dlock_lock_acquire_async(
                            lock.get(), 7, 0, -1, nullptr,
                            [](int status, uint64_t granted, const char*, void* ctx) {
                              auto* self = static_cast<Reentry*>(ctx);
                              self->thread = std::this_thread::get_id();
                              self->outcome.set_value({status, granted});
                            },
                            &reentry),
                        DLOCK_OK));
  const auto [status, granted] = reported.get();
  EXPECT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_EQ(granted, token) << "a re-entry reports the token of the hold it re-enters";
  EXPECT_NE(reentry.thread, std::this_thread::get_id()) << "done ran on the caller's thread";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 7), DLOCK_OK));
  EXPECT_EQ(server().command({"EXISTS", "async-reentry"}).integer, 1)
      << "the outer hold went with the inner release";
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 7), DLOCK_OK));
  EXPECT_EQ(server().command({"EXISTS", "async-reentry"}).integer, 0);
}

TEST_F(Async, ReleaseByAnotherOwnerIsNotOwnerAndTouchesNothing) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "async-owner");
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 1, 0, -1, nullptr, nullptr), DLOCK_OK));
  Completion released;
  std::future<Outcome> release = released.future();
  ASSERT_TRUE(status_is(dlock_lock_release_async(lock.get(), 2, Completion::on_done, &released), DLOCK_OK));
  const Outcome outcome = release.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_E_NOT_OWNER));
  EXPECT_NE(outcome.message.find("async-owner"), std::string::npos) << outcome.message;
  EXPECT_EQ(server().command({"EXISTS", "async-owner"}).integer, 1);
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 1), DLOCK_OK));
}

// Many waiters cost one thread, each wakes on a release message (well before
// the holder's lease), and the grants come one at a time with rising tokens.
TEST_F(Async, ManyWaitersShareOneThreadAndTakeTurns) {
  const ClientHandle holder_client = open_client(server().url());
  const ClientHandle client = open_client(server().url());
  const LockHandle held = new_lock(holder_client.get(), "async-turns");
  const LockHandle lock = new_lock(client.get(), "async-turns");
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, 30000, nullptr), DLOCK_OK));

  constexpr int waiters = 40;
  struct Turn {
    dlock_lock* lock;
    uint64_t owner;
    std::mutex* mutex;
    std::vector<uint64_t>* tokens;
    std::promise<void>* all_done;
    std::atomic<int>* remaining;
  };
  std::mutex mutex;
  std::vector<uint64_t> tokens;
  std::promise<void> all_done;
  std::atomic<int> remaining{waiters};
  std::vector<Turn> turns;
  turns.reserve(waiters);
  const int threads_before = thread_count();
  for (int i = 0; i < waiters; ++i) {
    turns.push_back({lock.get(), 100u + i, &mutex, &tokens, &all_done, &remaining});
    const auto on_grant = [](int status, uint64_t token, const char*, void* ctx) {
      auto* turn = static_cast<Turn*>(ctx);
      EXPECT_EQ(status, DLOCK_OK);
      {
        std::lock_guard<std::mutex> lock(*turn->mutex);
        turn->tokens->push_back(token);
      }
      // The callback may start more asynchronous work: hand the lock on.
      const auto on_release = [](int status, uint64_t, const char*, void* ctx) {
        EXPECT_EQ(status, DLOCK_OK);
        auto* turn = static_cast<Turn*>(ctx);
        if (turn->remaining->fetch_sub(1) == 1) turn->all_done->set_value();
      };
      EXPECT_EQ(dlock_lock_release_async(turn->lock, turn->owner, on_release, turn), DLOCK_OK);
    };
    ASSERT_TRUE(status_is(
        dlock_lock_acquire_async(lock.get(), 100u + i, -1, -1, nullptr, on_grant, &turns.back()), DLOCK_OK));
  }
  std::this_thread::sleep_for(milliseconds(200));
  // The runner, the subscriber and the wait heartbeat (the waiting owners'
  // liveness, backends/redis/wait_heartbeat.hpp): one each per client, however many wait.
  EXPECT_LE(thread_count(), threads_before + 3) << "waiting took threads";
  const int64_t released_at = monotonic_ms();
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  ASSERT_EQ(all_done.get_future().wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_LT(monotonic_ms() - released_at, 15000) << "waiters waited for leases, not messages";
  ASSERT_EQ(tokens.size(), static_cast<size_t>(waiters));
  for (size_t i = 1; i < tokens.size(); ++i) EXPECT_LT(tokens[i - 1], tokens[i]) << i;
}

TEST_F(Async, ABoundedWaitRunsOut) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "async-bounded");
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 1, 0, 30000, nullptr, nullptr), DLOCK_OK));
  Completion waited;
  std::future<Outcome> outcome = waited.future();
  const int64_t started = monotonic_ms();
  ASSERT_TRUE(status_is(
      dlock_lock_acquire_async(lock.get(), 2, 200, -1, nullptr, Completion::on_done, &waited), DLOCK_OK));
  EXPECT_LT(monotonic_ms() - started, 100) << "the call blocked";
  const Outcome result = outcome.get();
  EXPECT_TRUE(status_is(result.status, DLOCK_NOT_ACQUIRED));
  EXPECT_GE(result.at_ms - started, 190);
  EXPECT_LT(result.at_ms - started, 2000);
}

TEST_F(Async, CancelEndsTheWaitPromptly) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "async-cancel");
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 1, 0, 30000, nullptr, nullptr), DLOCK_OK));
  const CancelHandle cancel = new_cancel();
  Completion waited;
  std::future<Outcome> outcome = waited.future();
  ASSERT_TRUE(status_is(
      dlock_lock_acquire_async(lock.get(), 2, -1, -1, cancel.get(), Completion::on_done, &waited), DLOCK_OK));
  ASSERT_EQ(outcome.wait_for(milliseconds(300)), std::future_status::timeout);
  const int64_t cancelled_at = monotonic_ms();
  ASSERT_TRUE(status_is(dlock_cancel_trigger(cancel.get()), DLOCK_OK));
  const Outcome result = outcome.get();
  EXPECT_TRUE(status_is(result.status, DLOCK_E_INTERRUPTED));
  EXPECT_LT(result.at_ms - cancelled_at, 50);
  int held = 1;
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(lock.get(), 2, &held), DLOCK_OK));
  EXPECT_EQ(held, 0);
}

TEST_F(Async, ClosingTheClientEndsPendingWaits) {
  dlock_client* client = nullptr;
  ASSERT_TRUE(status_is(dlock_client_open(server().url().c_str(), nullptr, &client), DLOCK_OK));
  dlock_lock* lock = nullptr;
  ASSERT_TRUE(status_is(dlock_lock_new(client, "async-close", &lock), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock, 1, 0, 30000, nullptr, nullptr), DLOCK_OK));
  Completion waited;
  std::future<Outcome> outcome = waited.future();
  ASSERT_TRUE(
      status_is(dlock_lock_acquire_async(lock, 2, -1, -1, nullptr, Completion::on_done, &waited), DLOCK_OK));
  ASSERT_EQ(outcome.wait_for(milliseconds(200)), std::future_status::timeout);
  const int64_t started = monotonic_ms();
  dlock_client_close(client);
  EXPECT_LT(monotonic_ms() - started, 2000);
  ASSERT_EQ(outcome.wait_for(milliseconds(0)), std::future_status::ready)
      << "close returned before telling the waiter";
  EXPECT_TRUE(status_is(outcome.get().status, DLOCK_E_CLOSED));
  Completion after;
  EXPECT_TRUE(status_is(dlock_lock_acquire_async(lock, 3, 0, -1, nullptr, Completion::on_done, &after),
                        DLOCK_E_CLOSED));
  EXPECT_EQ(after.calls(), 0);
  dlock_lock_free(lock);
}

TEST_F(Async, AStalledServerNeverBlocksTheCaller) {
  dlock_client_options options = default_options();
  options.command_timeout_ms = 500;
  const ClientHandle client = open_client(server().url(), options);
  const LockHandle lock = new_lock(client.get(), "async-stalled");
  server().pause();
  Completion waited;
  std::future<Outcome> outcome = waited.future();
  const int64_t started = monotonic_ms();
  const int status = dlock_lock_acquire_async(lock.get(), 1, 0, -1, nullptr, Completion::on_done, &waited);
  const int64_t call_took = monotonic_ms() - started;
  const Outcome result = outcome.get();
  server().resume();
  EXPECT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(call_took, 50) << "the asynchronous call waited for Redis";
  EXPECT_TRUE(status_is(result.status, DLOCK_E_CONNECTION));
  EXPECT_FALSE(result.message.empty());
}

TEST_F(Async, BadInputIsRefusedAndNoCallbackRuns) {
  const ClientHandle client = open_client(server().url());
  const LockHandle lock = new_lock(client.get(), "async-bad");
  Completion never;
  EXPECT_TRUE(invalid_naming(
      dlock_lock_acquire_async(nullptr, 1, 0, -1, nullptr, Completion::on_done, &never), "lock"));
  EXPECT_TRUE(
      invalid_naming(dlock_lock_acquire_async(lock.get(), 1, 0, -1, nullptr, nullptr, &never), "done"));
  EXPECT_TRUE(invalid_naming(
      dlock_lock_acquire_async(lock.get(), 1, -5, -1, nullptr, Completion::on_done, &never), "wait_ms"));
  EXPECT_TRUE(invalid_naming(
      dlock_lock_acquire_async(lock.get(), 1, 0, 0, nullptr, Completion::on_done, &never), "lease_ms"));
  EXPECT_TRUE(invalid_naming(dlock_lock_release_async(nullptr, 1, Completion::on_done, &never), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_release_async(lock.get(), 1, nullptr, &never), "done"));
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(never.calls(), 0);
}

}  // namespace
}  // namespace dlock_test
