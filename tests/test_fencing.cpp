// Fencing tokens: strictly increasing over successive grants of a name, whoever
// takes it, and kept in Redisson's RFencedLock counter.
#include <gtest/gtest.h>

#include <string>

#include "dlock.h"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

class Fencing : public RedisFixture {};

uint64_t acquire_and_release(dlock_lock* lock, uint64_t owner) {
  uint64_t token = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire_owner(lock, owner, 0, 5000, nullptr, &token), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock, owner), DLOCK_OK));
  return token;
}

TEST_F(Fencing, TokensRiseAcrossClientsAndOwners) {
  const ClientHandle first = open();
  const ClientHandle second = open();
  const LockHandle a = new_lock(first.get(), "fenced");
  const LockHandle b = new_lock(second.get(), "fenced");
  uint64_t previous = 0;
  for (int round = 0; round < 10; ++round) {
    const uint64_t token = acquire_and_release(round % 2 == 0 ? a.get() : b.get(), 1 + round % 3);
    EXPECT_GT(token, previous) << "round " << round;
    previous = token;
  }
}

TEST_F(Fencing, CounterHoldsTheLastTokenWithoutExpiry) {
  for (const std::string name : {"fenced", "job{42}"}) {
    const ClientHandle client = open();
    const LockHandle lock = new_lock(client.get(), name);
    uint64_t token = 0;
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &token), DLOCK_OK));
    uint64_t current = 0;
    EXPECT_TRUE(status_is(dlock_lock_fencing_token(lock.get(), &current), DLOCK_OK));
    EXPECT_EQ(current, token);
    EXPECT_EQ(string_value(server(), fencing_counter_key(name)), std::to_string(token)) << name;
    ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
    EXPECT_EQ(string_value(server(), fencing_counter_key(name)), std::to_string(token))
        << "the counter is never reset";
    EXPECT_EQ(pttl(server(), fencing_counter_key(name)), -1) << "the counter has no TTL";
  }
}

TEST_F(Fencing, TokensContinueFromARedissonCounter) {
  constexpr long long kRedissonToken = 1000000;
  ASSERT_FALSE(
      server().command({"SET", fencing_counter_key("fenced"), std::to_string(kRedissonToken)}).is_error());
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "fenced");
  EXPECT_GT(acquire_and_release(lock.get(), 1), static_cast<uint64_t>(kRedissonToken));
}

TEST_F(Fencing, NoTokenWithoutAHold) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "fenced");
  uint64_t token = 0;
  EXPECT_TRUE(status_is(dlock_lock_fencing_token(lock.get(), &token), DLOCK_E_NOT_OWNER));
  acquire_and_release(lock.get(), dlock_thread_owner());
  EXPECT_TRUE(status_is(dlock_lock_fencing_token(lock.get(), &token), DLOCK_E_NOT_OWNER));
}

}  // namespace
}  // namespace dlock_test
