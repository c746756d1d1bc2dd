// A2: holds are counted locally per (client, owner); Redis keeps one field = 1 and
// another owner waits for the last release.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "dlock.h"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

constexpr int kDepth = 3;
const char* const kName = "reentrant";

class Reentrancy : public RedisFixture {};

int hold_count(dlock_lock* lock) {
  int count = -1;
  EXPECT_TRUE(status_is(dlock_lock_hold_count(lock, &count), DLOCK_OK));
  return count;
}

TEST_F(Reentrancy, NestedAcquiresShareOneFieldAndOneToken) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  uint64_t first = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &first), DLOCK_OK));
  for (int depth = 2; depth <= kDepth; ++depth) {
    uint64_t token = 0;
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &token), DLOCK_OK));
    EXPECT_EQ(token, first) << "a re-entrant acquire returns the token of the hold it re-enters";
    EXPECT_EQ(hold_count(lock.get()), depth);
  }
  const auto fields = hash_fields(server(), kName);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields.begin()->second, "1") << "re-entries are counted locally";
  uint64_t current = 0;
  EXPECT_TRUE(status_is(dlock_lock_fencing_token(lock.get(), &current), DLOCK_OK));
  EXPECT_EQ(current, first);

  for (int depth = kDepth; depth > 1; --depth) {
    ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
    EXPECT_EQ(hold_count(lock.get()), depth - 1);
    EXPECT_TRUE(key_exists(server(), kName)) << "released before the outermost release";
  }
  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_EQ(hold_count(lock.get()), 0);
  EXPECT_FALSE(key_exists(server(), kName));
}

TEST_F(Reentrancy, AnotherThreadWaitsForTheOutermostRelease) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  uint64_t first = 0;
  for (int depth = 0; depth < kDepth; ++depth) {
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &first), DLOCK_OK));
  }

  struct Outcome {
    int status;
    uint64_t token;
    int64_t acquired_ms;
  };
  auto other_thread = std::async(std::launch::async, [&] {
    Outcome outcome{};
    int immediate = dlock_lock_acquire(lock.get(), 0, -1, nullptr);
    EXPECT_TRUE(status_is(immediate, DLOCK_NOT_ACQUIRED)) << "another thread entered a held lock";
    outcome.status = dlock_lock_acquire(lock.get(), -1, -1, &outcome.token);
    outcome.acquired_ms = monotonic_ms();
    if (outcome.status == DLOCK_OK) EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
    return outcome;
  });

  for (int depth = kDepth; depth > 1; --depth) {
    ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  }
  EXPECT_EQ(other_thread.wait_for(milliseconds(300)), std::future_status::timeout)
      << "the other thread got the lock before the outermost release";
  const int64_t released_ms = monotonic_ms();
  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  const Outcome outcome = other_thread.get();
  ASSERT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_GT(outcome.token, first);
  EXPECT_LT(outcome.acquired_ms - released_ms, 1000) << "the waiter was not woken by the release";
  EXPECT_FALSE(key_exists(server(), kName));
}

TEST_F(Reentrancy, ExplicitOwnersAreCountedSeparately) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 7, 0, -1, nullptr, &token), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 7, 0, -1, nullptr, nullptr), DLOCK_OK));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(lock.get(), 8, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_NOT_ACQUIRED))
      << "the calling thread is not owner 7";

  int count = -1;
  EXPECT_TRUE(status_is(dlock_lock_hold_count_owner(lock.get(), 7, &count), DLOCK_OK));
  EXPECT_EQ(count, 2);
  EXPECT_TRUE(status_is(dlock_lock_hold_count_owner(lock.get(), 8, &count), DLOCK_OK));
  EXPECT_EQ(count, 0);
  EXPECT_EQ(hold_count(lock.get()), 0);
  int held = -1;
  EXPECT_TRUE(status_is(dlock_lock_is_held_owner(lock.get(), 7, &held), DLOCK_OK));
  EXPECT_EQ(held, 1);
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0);
  uint64_t current = 0;
  EXPECT_TRUE(status_is(dlock_lock_fencing_token_owner(lock.get(), 7, &current), DLOCK_OK));
  EXPECT_EQ(current, token);
  EXPECT_TRUE(status_is(dlock_lock_fencing_token_owner(lock.get(), 8, &current), DLOCK_E_NOT_OWNER));

  const auto fields = hash_fields(server(), kName);
  ASSERT_EQ(fields.size(), 1u);
  const std::string field = fields.begin()->first;
  EXPECT_EQ(field.substr(field.rfind(':') + 1), "7") << "field is <client-uuid>:<owner-id>: " << field;

  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 7), DLOCK_OK));
  EXPECT_TRUE(
      status_is(dlock_lock_acquire_owner(lock.get(), 8, 0, -1, nullptr, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 7), DLOCK_OK));
  uint64_t next = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 8, 0, -1, nullptr, &next), DLOCK_OK));
  EXPECT_GT(next, token);
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 8), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
}

TEST_F(Reentrancy, HandlesOnOneNameShareHolds) {
  const ClientHandle client = open();
  const LockHandle first = new_lock(client.get(), kName);
  const LockHandle second = new_lock(client.get(), kName);
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(first.get(), 0, -1, &token), DLOCK_OK));
  EXPECT_EQ(hold_count(second.get()), 1);
  uint64_t again = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire(second.get(), 0, -1, &again), DLOCK_OK));
  EXPECT_EQ(again, token);
  EXPECT_EQ(hold_count(first.get()), 2);
  EXPECT_TRUE(status_is(dlock_lock_release(second.get()), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(second.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
}

TEST_F(Reentrancy, ReentryMakesNoRoundTrip) {
  constexpr int kReentries = 50;
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), kName);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 20000, nullptr), DLOCK_OK));
  const long long before = server().info_integer("stats", "total_commands_processed");
  for (int i = 0; i < kReentries; ++i) {
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 20000, nullptr), DLOCK_OK));
  }
  const long long after = server().info_integer("stats", "total_commands_processed");
  EXPECT_LT(after - before, 10) << kReentries << " re-entries made " << (after - before) << " commands";
  for (int i = 0; i <= kReentries; ++i) ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), kName));
}

}  // namespace
}  // namespace dlock_test
