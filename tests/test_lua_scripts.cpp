// One test per branch of each Lua script in src/lua/lock, run as the library runs
// them (EVAL with the same keys and arguments), against a real server.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "redis_fixture.hpp"

namespace dlock_test {
namespace {

std::string script(const std::string& file) {
  std::ifstream in(std::string(DLOCK_LUA_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw std::runtime_error("cannot read " + file);
  return text.str();
}

const std::string kLock = "orders:7";
const std::string kCounter = "redisson_lock_token:{orders:7}";
const std::string kChannel = "redisson_lock__channel:{orders:7}";
const std::string kMine = "client-a:1";
const std::string kTheirs = "client-b:1";

class LuaScripts : public RedisFixture {
 protected:
  RedisReply eval(const std::string& file, std::vector<std::string> keys, std::vector<std::string> args) {
    std::vector<std::string> argv = {"EVAL", script(file), std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return server().command(argv);
  }
  RedisReply acquire(const std::string& owner, const std::string& lease_ms = "10000") {
    return eval("acquire.lua", {kLock, kCounter}, {lease_ms, owner});
  }
  RedisReply release(const std::string& owner, const std::string& request) {
    return eval("release.lua", {kLock, kChannel, "redisson_unlock_latch:{orders:7}:" + request},
                {owner, "5000"});
  }
  std::string get(const std::string& key) { return server().command({"GET", key}).str; }
  long long pttl() { return server().command({"PTTL", kLock}).integer; }
  RedisReply hgetall() { return server().command({"HGETALL", kLock}); }
};

long long server_time_us(RedisServer& server) {
  const RedisReply now = server.command({"TIME"});
  return std::stoll(now.elements[0].str) * 1000000 + std::stoll(now.elements[1].str);
}

TEST_F(LuaScripts, AcquireGrantsAFreeLockWithATokenFromTheServerClock) {
  const long long before_us = server_time_us(server());
  const RedisReply reply = acquire(kMine);
  ASSERT_EQ(reply.elements.size(), 2u);
  EXPECT_EQ(reply.elements[0].integer, 1);
  EXPECT_GE(reply.elements[1].integer, before_us) << "a fresh counter starts at the server's time in µs";
  EXPECT_EQ(get(kCounter), std::to_string(reply.elements[1].integer));
  const RedisReply fields = hgetall();
  ASSERT_EQ(fields.elements.size(), 2u);
  EXPECT_EQ(fields.elements[0].str, kMine);
  EXPECT_EQ(fields.elements[1].str, "1");
  EXPECT_GT(pttl(), 9000);
}

TEST_F(LuaScripts, AcquireTokenIsCounterPlusOneWhenTheCounterIsAhead) {
  const long long ahead = server_time_us(server()) + 3600LL * 1000000;
  server().command({"SET", kCounter, std::to_string(ahead)});
  const RedisReply reply = acquire(kMine);
  EXPECT_EQ(reply.elements[1].integer, ahead + 1);
}

TEST_F(LuaScripts, AcquireByTheOwnerAgainKeepsItsTokenAndCountsOnce) {
  const long long token = acquire(kMine, "10000").elements[1].integer;
  const RedisReply again = acquire(kMine, "20000");
  EXPECT_EQ(again.elements[0].integer, 1);
  EXPECT_EQ(again.elements[1].integer, token) << "a retried grant must not take a new token";
  EXPECT_EQ(hgetall().elements[1].str, "1") << "a retried grant must not count twice";
  EXPECT_GT(pttl(), 15000) << "the retry renews the lease";
}

TEST_F(LuaScripts, AcquireOfAHeldLockReturnsTheHoldersPttlAndTouchesNothing) {
  acquire(kTheirs, "7000");
  const std::string counter = get(kCounter);
  const RedisReply reply = acquire(kMine);
  EXPECT_EQ(reply.elements[0].integer, 0);
  EXPECT_GT(reply.elements[1].integer, 6000);
  EXPECT_LE(reply.elements[1].integer, 7000);
  EXPECT_EQ(get(kCounter), counter);
  EXPECT_EQ(hgetall().elements[0].str, kTheirs);
}

TEST_F(LuaScripts, AcquireOfAKeyOfAnotherTypeFailsAndLeavesIt) {
  server().command({"SET", kLock, "not a lock"});
  EXPECT_TRUE(acquire(kMine).is_error());
  EXPECT_EQ(get(kLock), "not a lock");
}

TEST_F(LuaScripts, ReleaseByTheOwnerDeletesPublishesAndRemembersTheOutcome) {
  acquire(kMine);
  RedisConnection listener = server().connect();
  listener.command({"SUBSCRIBE", kChannel});
  EXPECT_EQ(release(kMine, "r1").integer, 1);
  EXPECT_EQ(server().command({"EXISTS", kLock}).integer, 0);
  const std::optional<RedisReply> message = listener.read_pushed();
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(message->elements[2].str, "0");
  EXPECT_EQ(get("redisson_unlock_latch:{orders:7}:r1"), "1");
}

TEST_F(LuaScripts, ReleaseRetriedAfterALostReplyAnswersTheSame) {
  acquire(kMine);
  ASSERT_EQ(release(kMine, "r1").integer, 1);
  acquire(kTheirs);
  EXPECT_EQ(release(kMine, "r1").integer, 1) << "the latch answers the retry";
  EXPECT_EQ(hgetall().elements[0].str, kTheirs) << "and the retry leaves the next holder alone";
}

TEST_F(LuaScripts, ReleaseByANonOwnerTouchesNothing) {
  acquire(kTheirs);
  const long long before = pttl();
  EXPECT_EQ(release(kMine, "r2").integer, 0);
  EXPECT_EQ(hgetall().elements[0].str, kTheirs);
  EXPECT_LE(pttl(), before);
  EXPECT_EQ(server().command({"EXISTS", "redisson_unlock_latch:{orders:7}:r2"}).integer, 0);
}

TEST_F(LuaScripts, RenewExtendsOnlyTheOwnersLease) {
  acquire(kMine, "2000");
  EXPECT_EQ(eval("renew.lua", {kLock}, {"30000", kMine}).integer, 1);
  EXPECT_GT(pttl(), 25000);
}

TEST_F(LuaScripts, RenewOfAReleasedLockDoesNotResurrectIt) {
  EXPECT_EQ(eval("renew.lua", {kLock}, {"30000", kMine}).integer, 0);
  EXPECT_EQ(server().command({"EXISTS", kLock}).integer, 0);
  acquire(kTheirs, "2000");
  EXPECT_EQ(eval("renew.lua", {kLock}, {"30000", kMine}).integer, 0);
  EXPECT_LE(pttl(), 2000);
}

TEST_F(LuaScripts, ForceReleaseDeletesAnyHolderAndPublishes) {
  acquire(kTheirs);
  EXPECT_EQ(eval("force_release.lua", {kLock, kChannel}, {}).integer, 1);
  EXPECT_EQ(server().command({"EXISTS", kLock}).integer, 0);
}

TEST_F(LuaScripts, ForceReleaseOfAFreeLockSaysSo) {
  EXPECT_EQ(eval("force_release.lua", {kLock, kChannel}, {}).integer, 0);
}

TEST_F(LuaScripts, ForceReleaseLeavesAKeyOfAnotherType) {
  server().command({"SET", kLock, "not a lock"});
  EXPECT_TRUE(eval("force_release.lua", {kLock, kChannel}, {}).is_error());
  EXPECT_EQ(get(kLock), "not a lock");
}

TEST_F(LuaScripts, KeepRenamesTheOwnersFieldAndSetsTheLease) {
  acquire(kMine, "2000");
  EXPECT_EQ(eval("keep.lua", {kLock}, {kMine, "60000"}).integer, 1);
  const RedisReply fields = hgetall();
  ASSERT_EQ(fields.elements.size(), 2u);
  EXPECT_EQ(fields.elements[0].str, kMine + ":kept");
  EXPECT_GT(pttl(), 59000);
  EXPECT_EQ(acquire(kMine).elements[0].integer, 0) << "the owner no longer finds its field";
  EXPECT_EQ(eval("renew.lua", {kLock}, {"30000", kMine}).integer, 0) << "nor does its watchdog";
}

TEST_F(LuaScripts, KeepRetriedAfterALostReplyAnswersTheSameAndTouchesNothing) {
  acquire(kMine);
  ASSERT_EQ(eval("keep.lua", {kLock}, {kMine, "60000"}).integer, 1);
  server().command({"PEXPIRE", kLock, "5000"});
  EXPECT_EQ(eval("keep.lua", {kLock}, {kMine, "60000"}).integer, 1);
  EXPECT_LE(pttl(), 5000) << "a retry must not extend the kept hold";
}

TEST_F(LuaScripts, KeepByANonOwnerTouchesNothing) {
  acquire(kTheirs, "7000");
  EXPECT_EQ(eval("keep.lua", {kLock}, {kMine, "60000"}).integer, 0);
  EXPECT_EQ(hgetall().elements[0].str, kTheirs);
  EXPECT_LE(pttl(), 7000);
  EXPECT_EQ(eval("keep.lua", {"free-lock"}, {kMine, "60000"}).integer, 0);
  EXPECT_EQ(server().command({"EXISTS", "free-lock"}).integer, 0);
}

TEST_F(LuaScripts, InspectReadsHoldersPttlAndLastToken) {
  const long long token = acquire(kMine, "9000").elements[1].integer;
  const RedisReply reply = eval("inspect.lua", {kLock, kCounter}, {});
  ASSERT_EQ(reply.elements.size(), 3u);
  ASSERT_EQ(reply.elements[0].elements.size(), 2u);
  EXPECT_EQ(reply.elements[0].elements[0].str, kMine);
  EXPECT_EQ(reply.elements[0].elements[1].str, "1");
  EXPECT_GT(reply.elements[1].integer, 8000);
  EXPECT_EQ(reply.elements[2].str, std::to_string(token));
}

TEST_F(LuaScripts, InspectOfAFreeLockHasNoHoldersNoPttlAndNoToken) {
  const RedisReply reply = eval("inspect.lua", {kLock, kCounter}, {});
  ASSERT_EQ(reply.elements.size(), 3u);
  EXPECT_TRUE(reply.elements[0].elements.empty());
  EXPECT_EQ(reply.elements[1].integer, -2);
  EXPECT_EQ(reply.elements[2].type, RedisReply::Type::nil);
}

TEST_F(LuaScripts, InspectOfAKeyOfAnotherTypeFails) {
  server().command({"SET", kLock, "not a lock"});
  const RedisReply reply = eval("inspect.lua", {kLock, kCounter}, {});
  EXPECT_TRUE(reply.is_error());
  EXPECT_NE(reply.str.find("WRONGTYPE"), std::string::npos) << reply.str;
}

const std::string kAttempts = "dlock_attempts:{orders:7}:p1";

class CountAttempt : public LuaScripts {
 protected:
  RedisReply count(const std::string& request, const std::string& max = "2") {
    return eval("count_attempt.lua", {kAttempts, "dlock_attempt_latch:{orders:7}:" + request},
                {max, "60000", "5000"});
  }
};

TEST_F(CountAttempt, CountsAndSetsTheExpiryOnTheFirstAttempt) {
  const RedisReply first = count("r1");
  EXPECT_EQ(first.elements[0].integer, 1);
  EXPECT_EQ(first.elements[1].integer, 1);
  EXPECT_GT(server().command({"PTTL", kAttempts}).integer, 59000);
  server().command({"PEXPIRE", kAttempts, "30000"});
  const RedisReply second = count("r2");
  EXPECT_EQ(second.elements[0].integer, 1);
  EXPECT_EQ(second.elements[1].integer, 2);
  EXPECT_LE(server().command({"PTTL", kAttempts}).integer, 30000) << "later attempts keep the expiry";
}

TEST_F(CountAttempt, AtTheLimitCountsNothing) {
  count("r1");
  count("r2");
  const RedisReply over = count("r3");
  EXPECT_EQ(over.elements[0].integer, 0);
  EXPECT_EQ(over.elements[1].integer, 2);
  EXPECT_EQ(get(kAttempts), "2");
}

TEST_F(CountAttempt, RetriedAfterALostReplyAnswersTheSameWithoutCounting) {
  ASSERT_EQ(count("r1").elements[1].integer, 1);
  const RedisReply retry = count("r1");
  EXPECT_EQ(retry.elements[0].integer, 1);
  EXPECT_EQ(retry.elements[1].integer, 1);
  EXPECT_EQ(get(kAttempts), "1");
}

}  // namespace
}  // namespace dlock_test
