// The lock's administration calls: a hold kept until it lapses
// (dlock_lock_release_keeping), a snapshot of a lock (dlock_lock_inspect) and
// per-period attempt counters (dlock_lock_count_attempt).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "background_acquire.hpp"
#include "dlock.h"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kName = "nightly";
constexpr uint64_t kOwner = 42;
constexpr int64_t kWatchdogMs = 900;

class LockAdmin : public RedisFixture {
 protected:
  void SetUp() override {
    RedisFixture::SetUp();
    client_ = open(kWatchdogMs);
    lock_ = new_lock(client_.get(), kName);
  }

  int acquire(dlock_lock* lock, uint64_t owner = kOwner, int64_t lease_ms = -1) {
    return dlock_lock_acquire_owner(lock, owner, 0, lease_ms, nullptr, nullptr);
  }

  ClientHandle client_;
  LockHandle lock_;
};

struct HoldersFreer {
  void operator()(dlock_lock_holders* holders) const { dlock_lock_holders_free(holders); }
};
using HoldersHandle = std::unique_ptr<dlock_lock_holders, HoldersFreer>;

// ---- dlock_lock_release_keeping ----

TEST_F(LockAdmin, KeepingRenamesTheHoldersFieldAndSetsTheLease) {
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  const std::string field = hash_fields(server(), kName).begin()->first;
  ASSERT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 60000), DLOCK_OK));
  const auto fields = hash_fields(server(), kName);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields.begin()->first, field + ":kept");
  EXPECT_GT(pttl(server(), kName), 59000);
  int held = 1;
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(lock_.get(), kOwner, &held), DLOCK_OK));
  EXPECT_EQ(held, 0) << "the kept hold left the client";
}

TEST_F(LockAdmin, KeptHoldIsNotRenewedAndLapsesAtKeepMs) {
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock_.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  constexpr int64_t kKeepMs = 2 * kWatchdogMs;
  ASSERT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, kKeepMs), DLOCK_OK));
  const int64_t kept_at = monotonic_ms();
  const long long renewals_before = renewal_calls(server());
  long long previous = pttl(server(), kName);
  while (key_exists(server(), kName)) {
    const long long remaining = pttl(server(), kName);
    ASSERT_LE(remaining, previous) << "something renewed the kept hold";
    previous = remaining;
    std::this_thread::sleep_for(milliseconds(20));
  }
  const int64_t lapsed_after = monotonic_ms() - kept_at;
  EXPECT_GE(lapsed_after, kKeepMs - 100);
  EXPECT_LE(lapsed_after, kKeepMs + 500);
  EXPECT_EQ(renewal_calls(server()) - renewals_before, 0);
  std::this_thread::sleep_for(milliseconds(kWatchdogMs));
  EXPECT_FALSE(key_exists(server(), kName)) << "the watchdog brought the lock back";
  EXPECT_EQ(lost.calls(), 0) << "keeping is not losing";
}

TEST_F(LockAdmin, NobodyAcquiresDuringTheKeptTimeNotEvenTheSameOwner) {
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 1500), DLOCK_OK));
  EXPECT_TRUE(status_is(acquire(lock_.get()), DLOCK_NOT_ACQUIRED)) << "the same owner and client";
  const ClientHandle other = open();
  const LockHandle theirs = new_lock(other.get(), kName);
  EXPECT_TRUE(status_is(acquire(theirs.get(), 7), DLOCK_NOT_ACQUIRED));
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(theirs.get(), 7, 5000, -1, nullptr, nullptr), DLOCK_OK));
  EXPECT_GE(monotonic_ms() - started, 1000) << "acquired long before the kept hold lapsed";
}

// A waiter sleeps until the holder's lease as it last saw it: shortening the
// hold must tell it, or it sleeps past the kept time (a 10 s lease kept for
// 0.5 s would keep a 3 s wait from ever getting it).
TEST_F(LockAdmin, KeepingForLessThanTheLeaseWakesTheWaiters) {
  ASSERT_TRUE(status_is(acquire(lock_.get(), kOwner, 10000), DLOCK_OK));
  const ClientHandle other = open();
  const LockHandle theirs = new_lock(other.get(), kName);
  auto waiter = acquire_in_background(theirs.get(), 7, 3000);
  ASSERT_TRUE(wait_until([&] { return classic_subscribers(server(), "redisson_lock__channel:{nightly}") > 0; }, milliseconds(2000)))
      << "the waiter never subscribed";
  ASSERT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 500), DLOCK_OK));
  const int64_t kept_ns = monotonic_ns();
  const AcquireOutcome outcome = waiter.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK)) << "the waiter slept past the kept time";
  EXPECT_GE(outcome.returned_ns - kept_ns, 400LL * 1000 * 1000) << "granted before the kept hold lapsed";
}

TEST_F(LockAdmin, KeepingWhatTheCallerDoesNotHoldIsNotOwner) {
  const ClientHandle other = open();
  const LockHandle theirs = new_lock(other.get(), kName);
  ASSERT_TRUE(status_is(acquire(theirs.get(), 7), DLOCK_OK));
  const auto before = hash_fields(server(), kName);
  EXPECT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 60000), DLOCK_E_NOT_OWNER));
  EXPECT_EQ(hash_fields(server(), kName), before);
  EXPECT_LE(pttl(server(), kName), 30000);
}

TEST_F(LockAdmin, KeepingALostHoldIsLostAndLeavesTheNewHolder) {
  LostRecorder lost;
  ASSERT_TRUE(status_is(lost.attach(lock_.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(lock_.get(), kOwner, 60000), DLOCK_OK));
  server().command({"DEL", kName});
  forge_foreign_holder(server(), kName, "redisson-client:1", 30000);
  EXPECT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 60000), DLOCK_E_LOST));
  EXPECT_EQ(lost.calls(), 1);
  const auto fields = hash_fields(server(), kName);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields.begin()->first, "redisson-client:1");
  EXPECT_LE(pttl(server(), kName), 30000);
  int held = 1;
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(lock_.get(), kOwner, &held), DLOCK_OK));
  EXPECT_EQ(held, 0) << "the lost hold is forgotten";
}

TEST_F(LockAdmin, KeepingARenteredHoldIsRefusedAndChangesNothing) {
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  const auto before = hash_fields(server(), kName);
  EXPECT_TRUE(invalid_naming(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 60000), "outermost"));
  EXPECT_EQ(hash_fields(server(), kName), before);
  int count = 0;
  ASSERT_TRUE(status_is(dlock_lock_hold_count_owner(lock_.get(), kOwner, &count), DLOCK_OK));
  EXPECT_EQ(count, 2);
  ASSERT_TRUE(status_is(dlock_lock_release_owner(lock_.get(), kOwner), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release_keeping_owner(lock_.get(), kOwner, 60000), DLOCK_OK));
}

TEST_F(LockAdmin, KeepingForTheCallingThread) {
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock_.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release_keeping(lock_.get(), 60000), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release_keeping(lock_.get(), 60000), DLOCK_E_NOT_OWNER));
}

TEST_F(LockAdmin, KeepingRejectsBadInput) {
  EXPECT_TRUE(invalid_naming(dlock_lock_release_keeping(nullptr, 1000), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_release_keeping_owner(nullptr, kOwner, 1000), "lock"));
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  for (const int64_t keep_ms : {int64_t{0}, int64_t{-1}, DLOCK_DURATION_MAX_MS + 1}) {
    EXPECT_TRUE(invalid_naming(dlock_lock_release_keeping_owner(lock_.get(), kOwner, keep_ms), "keep_ms"))
        << keep_ms;
  }
  int held = 0;
  ASSERT_TRUE(status_is(dlock_lock_is_held_owner(lock_.get(), kOwner, &held), DLOCK_OK));
  EXPECT_EQ(held, 1) << "a refused keep leaves the hold";
}

// ---- dlock_lock_inspect ----

TEST_F(LockAdmin, InspectingAFreeLock) {
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* raw = nullptr;
  ASSERT_TRUE(status_is(dlock_lock_inspect(lock_.get(), &info, &raw), DLOCK_OK));
  const HoldersHandle holders(raw);
  EXPECT_NE(holders, nullptr);
  EXPECT_EQ(info.size, sizeof(dlock_lock_info));
  EXPECT_EQ(info.ttl_ms, -2);
  EXPECT_EQ(info.holder_count, 0u);
  EXPECT_EQ(info.has_last_token, 0);
  EXPECT_TRUE(invalid_naming(dlock_lock_holders_get(holders.get(), 0, nullptr, nullptr, nullptr), "index"));
}

TEST_F(LockAdmin, InspectingAHeldLock) {
  uint64_t token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock_.get(), kOwner, 0, 20000, nullptr, &token), DLOCK_OK));
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* raw = nullptr;
  ASSERT_TRUE(status_is(dlock_lock_inspect(lock_.get(), &info, &raw), DLOCK_OK));
  const HoldersHandle holders(raw);
  EXPECT_GT(info.ttl_ms, 19000);
  EXPECT_LE(info.ttl_ms, 20000);
  EXPECT_EQ(info.has_last_token, 1);
  EXPECT_EQ(info.last_token, token);
  ASSERT_EQ(info.holder_count, 1u);
  const char* id = nullptr;
  size_t length = 0;
  int64_t count = 0;
  ASSERT_TRUE(status_is(dlock_lock_holders_get(holders.get(), 0, &id, &length, &count), DLOCK_OK));
  const std::string field = hash_fields(server(), kName).begin()->first;
  EXPECT_EQ(std::string(id, length), field);
  EXPECT_EQ(std::string(id), field) << "NUL-terminated";
  EXPECT_EQ(count, 1);
  EXPECT_TRUE(invalid_naming(dlock_lock_holders_get(holders.get(), 1, &id, nullptr, nullptr), "index"));
}

TEST_F(LockAdmin, InspectingShowsAForeignHoldersCountAndNoExpiry) {
  server().command({"HSET", kName, "redisson-client:9", "3"});
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* raw = nullptr;
  ASSERT_TRUE(status_is(dlock_lock_inspect(lock_.get(), &info, &raw), DLOCK_OK));
  const HoldersHandle holders(raw);
  EXPECT_EQ(info.ttl_ms, -1);
  int64_t count = 0;
  ASSERT_TRUE(status_is(dlock_lock_holders_get(holders.get(), 0, nullptr, nullptr, &count), DLOCK_OK));
  EXPECT_EQ(count, 3);
}

TEST_F(LockAdmin, InspectingAKeyOfAnotherTypeIsAProtocolError) {
  server().command({"SET", kName, "not a lock"});
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  dlock_lock_holders* holders = reinterpret_cast<dlock_lock_holders*>(&info);
  EXPECT_TRUE(status_is(dlock_lock_inspect(lock_.get(), &info, &holders), DLOCK_E_PROTOCOL));
  EXPECT_EQ(holders, nullptr);
  EXPECT_EQ(string_value(server(), kName), "not a lock");
}

TEST_F(LockAdmin, InspectingWithoutHoldersStillFillsTheInfo) {
  ASSERT_TRUE(status_is(acquire(lock_.get()), DLOCK_OK));
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  ASSERT_TRUE(status_is(dlock_lock_inspect(lock_.get(), &info, nullptr), DLOCK_OK));
  EXPECT_EQ(info.holder_count, 1u);
}

TEST_F(LockAdmin, InspectingRejectsBadInput) {
  dlock_lock_info info;
  dlock_lock_info_init(&info);
  EXPECT_TRUE(invalid_naming(dlock_lock_inspect(nullptr, &info, nullptr), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_inspect(lock_.get(), nullptr, nullptr), "info"));
  info.size = sizeof(size_t);
  EXPECT_TRUE(invalid_naming(dlock_lock_inspect(lock_.get(), &info, nullptr), "info"));
  EXPECT_TRUE(invalid_naming(dlock_lock_holders_get(nullptr, 0, nullptr, nullptr, nullptr), "holders"));
  dlock_lock_info_init(nullptr);
  dlock_lock_holders_free(nullptr);
}

// ---- dlock_lock_count_attempt ----

TEST_F(LockAdmin, CountsAttemptsUpToTheLimit) {
  int64_t attempt = 0;
  ASSERT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "1700000000", 60000, 2, &attempt), DLOCK_OK));
  EXPECT_EQ(attempt, 1);
  ASSERT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "1700000000", 60000, 2, &attempt), DLOCK_OK));
  EXPECT_EQ(attempt, 2);
  EXPECT_TRUE(
      status_is(dlock_lock_count_attempt(lock_.get(), "1700000000", 60000, 2, &attempt), DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(attempt, 2);
  const std::string counter = "dlock_attempts:{nightly}:1700000000";
  EXPECT_EQ(string_value(server(), counter), "2") << "an attempt over the limit is not counted";
  EXPECT_GT(pttl(server(), counter), 59000);
  EXPECT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "1700000001", 60000, 2, &attempt), DLOCK_OK));
  EXPECT_EQ(attempt, 1) << "each period has its own counter";
}

TEST_F(LockAdmin, TheCounterLapsesAfterExpireInMs) {
  int64_t attempt = 0;
  ASSERT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "p", 500, 1, &attempt), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "p", 500, 1, &attempt), DLOCK_NOT_ACQUIRED));
  ASSERT_TRUE(
      wait_until([&] { return !key_exists(server(), "dlock_attempts:{nightly}:p"); }, milliseconds(2000)));
  EXPECT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "p", 500, 1, &attempt), DLOCK_OK));
  EXPECT_EQ(attempt, 1);
}

TEST_F(LockAdmin, CountersOfATaggedNameStayInItsSlot) {
  const LockHandle tagged = new_lock(client_.get(), "job{42}");
  int64_t attempt = 0;
  ASSERT_TRUE(status_is(dlock_lock_count_attempt(tagged.get(), "p", 60000, 1, &attempt), DLOCK_OK));
  EXPECT_TRUE(key_exists(server(), "dlock_attempts:job{42}:p"));
}

TEST_F(LockAdmin, ACounterOfAnotherTypeIsAProtocolError) {
  server().command({"HSET", "dlock_attempts:{nightly}:p", "x", "1"});
  int64_t attempt = 0;
  EXPECT_TRUE(status_is(dlock_lock_count_attempt(lock_.get(), "p", 60000, 1, &attempt), DLOCK_E_PROTOCOL));
}

TEST_F(LockAdmin, CountingRejectsBadInput) {
  int64_t attempt = 0;
  EXPECT_TRUE(invalid_naming(dlock_lock_count_attempt(nullptr, "p", 1000, 1, &attempt), "lock"));
  EXPECT_TRUE(invalid_naming(dlock_lock_count_attempt(lock_.get(), nullptr, 1000, 1, &attempt), "period_id"));
  EXPECT_TRUE(invalid_naming(dlock_lock_count_attempt(lock_.get(), "", 1000, 1, &attempt), "period_id"));
  const std::string too_long(DLOCK_NAME_MAX + 1, 'p');
  EXPECT_TRUE(invalid_naming(dlock_lock_count_attempt(lock_.get(), too_long.c_str(), 1000, 1, &attempt),
                             "period_id"));
  EXPECT_TRUE(invalid_naming(dlock_lock_count_attempt(lock_.get(), "p", 1000, 1, nullptr), "attempt_out"));
  for (const int64_t expire_ms : {int64_t{0}, int64_t{-5}, DLOCK_DURATION_MAX_MS + 1}) {
    EXPECT_TRUE(
        invalid_naming(dlock_lock_count_attempt(lock_.get(), "p", expire_ms, 1, &attempt), "expire_in_ms"));
  }
  EXPECT_TRUE(invalid_naming(dlock_lock_count_attempt(lock_.get(), "p", 1000, 0, &attempt), "max_attempts"));
  EXPECT_FALSE(key_exists(server(), "dlock_attempts:{nightly}:p")) << "refused calls count nothing";
}

}  // namespace
}  // namespace dlock_test
