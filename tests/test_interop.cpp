// Redisson's RLock layout (SPEC.md section 2): a Redisson process and a dlock
// process guard the same resource by the same name.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include "dlock.h"
#include "redis_connection.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

const char* const kForeignField = "c0ffee00-0000-4000-8000-000000000000:1";

class Interop : public RedisFixture {
 protected:
  // A connection subscribed to the lock's release channel.
  RedisConnection subscribe(const std::string& name) {
    RedisConnection connection = server().connect();
    const RedisReply confirmation = connection.command({"SUBSCRIBE", release_channel(name)});
    EXPECT_EQ(confirmation.elements.size(), 3u);
    return connection;
  }
};

// "0" published on the channel, read within the connection's timeout.
void expect_release_message(RedisConnection& subscriber, const std::string& name) {
  const std::optional<RedisReply> message = subscriber.read_pushed();
  ASSERT_TRUE(message.has_value()) << "no message on " << release_channel(name);
  ASSERT_EQ(message->elements.size(), 3u);
  EXPECT_EQ(message->elements[0].str, "message");
  EXPECT_EQ(message->elements[1].str, release_channel(name));
  EXPECT_EQ(message->elements[2].str, "0");
}

TEST_F(Interop, HoldIsAHashFieldOfClientIdAndOwnerWithALease) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "shared");
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(lock.get(), 42, 0, 5000, nullptr, nullptr), DLOCK_OK));
  EXPECT_EQ(server().command({"TYPE", "shared"}).str, "hash");
  const auto fields = hash_fields(server(), "shared");
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_TRUE(std::regex_match(fields.begin()->first, std::regex(R"([^:]+:42)"))) << fields.begin()->first;
  EXPECT_EQ(fields.begin()->second, "1");
  const long long lease = pttl(server(), "shared");
  EXPECT_GT(lease, 3000);
  EXPECT_LE(lease, 5000);
  EXPECT_TRUE(status_is(dlock_lock_release_owner(lock.get(), 42), DLOCK_OK));
}

TEST_F(Interop, ClientsHaveDistinctIds) {
  const ClientHandle first = open();
  const ClientHandle second = open();
  const LockHandle a = new_lock(first.get(), "a");
  const LockHandle b = new_lock(second.get(), "b");
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(a.get(), 1, 0, 5000, nullptr, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(b.get(), 1, 0, 5000, nullptr, nullptr), DLOCK_OK));
  EXPECT_NE(hash_fields(server(), "a").begin()->first, hash_fields(server(), "b").begin()->first);
}

TEST_F(Interop, ReleasePublishesZeroOnTheRedissonChannel) {
  for (const std::string name : {"shared", "job{7}"}) {
    RedisConnection subscriber = subscribe(name);
    const ClientHandle client = open();
    const LockHandle lock = new_lock(client.get(), name);
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
    ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
    expect_release_message(subscriber, name);
  }
}

TEST_F(Interop, ForceReleasePublishesToo) {
  forge_foreign_holder(server(), "shared", kForeignField, 20000);
  RedisConnection subscriber = subscribe("shared");
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "shared");
  ASSERT_TRUE(status_is(dlock_lock_force_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(server(), "shared"));
  expect_release_message(subscriber, "shared");
}

TEST_F(Interop, ARedissonHolderIsSeenAsTheHolder) {
  forge_foreign_holder(server(), "shared", kForeignField, 8000);
  ASSERT_FALSE(server().command({"HSET", "shared", kForeignField, "2"}).is_error());
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "shared");
  int locked = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_locked(lock.get(), &locked), DLOCK_OK));
  EXPECT_EQ(locked, 1);
  int held = 1;
  EXPECT_TRUE(status_is(dlock_lock_is_held(lock.get(), &held), DLOCK_OK));
  EXPECT_EQ(held, 0);
  int64_t ttl = 0;
  EXPECT_TRUE(status_is(dlock_lock_ttl(lock.get(), &ttl), DLOCK_OK));
  EXPECT_GT(ttl, 5000);
  EXPECT_LE(ttl, 8000);
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_EQ(hash_fields(server(), "shared"), (std::map<std::string, std::string>{{kForeignField, "2"}}));
}

TEST_F(Interop, TtlAndIsLockedOfAFreeLock) {
  const ClientHandle client = open();
  const LockHandle lock = new_lock(client.get(), "shared");
  int64_t ttl = 0;
  EXPECT_TRUE(status_is(dlock_lock_ttl(lock.get(), &ttl), DLOCK_OK));
  EXPECT_EQ(ttl, -2);
  int locked = 1;
  EXPECT_TRUE(status_is(dlock_lock_is_locked(lock.get(), &locked), DLOCK_OK));
  EXPECT_EQ(locked, 0);
}

}  // namespace
}  // namespace dlock_test
