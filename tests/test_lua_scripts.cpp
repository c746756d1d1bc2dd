// One test per branch of each Lua script in src/backends/redis/lua/lock, run as the library runs
// them (EVAL with the same keys and arguments), against a real server.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "redis_connection.hpp"
#include "redis_fixture.hpp"

namespace dlock_test {
namespace {

std::string read_script(const std::string& file) {
  std::ifstream in(std::string(DLOCK_LUA_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw std::runtime_error("cannot read " + file);
  return text.str();
}

// The script as the library sends it (LockScripts::acquire_prelude() and
// release_prelude()): acquire.lua after tokens.lua, hold_checks.lua, the
// waiters' liveness window (backends/redis/wait_heartbeat.hpp's wait_liveness_lua();
// these tests never wait that long) and waiters.lua, release.lua after all
// but tokens.lua.
std::string script(const std::string& file) {
  const std::string checks = read_script("../hold_checks.lua") + "\nlocal wait_liveness_ms = 750\n" +
                             read_script("waiters.lua") + "\n";
  if (file == "acquire.lua") return read_script("../tokens.lua") + "\n" + checks + read_script(file);
  if (file == "release.lua") return checks + read_script(file);
  return read_script(file);
}

const std::string kLock = "orders:7";
const std::string kCounter = "redisson_lock_token:{orders:7}";
const std::string kChannel = "redisson_lock__channel:{orders:7}";
const std::string kTurn = "dlock_turn:{orders:7}";
const std::string kWaiting = "dlock_waiting:{orders:7}";
const std::string kDeadlines = "dlock_waiting:{orders:7}:until";
const std::string kMine = "client-a:1";
const std::string kTheirs = "client-b:1";
// A release's request id: "<client id>:<count>", the client of kMine.
std::string request(int count) {
  return "client-a:" + std::to_string(count);
}
std::string latch(const std::string& owner) {
  return "redisson_unlock_latch:{orders:7}:" + owner;
}
// The owner's grant key: its last grant's request id and token.
std::string grant(const std::string& owner) {
  return "dlock_grant:{orders:7}:" + owner;
}
// An acquire's request id later than every release the tests send.
const std::string kLateRequest = request(999999);

std::vector<std::string> eval_argv(const std::string& file, const std::vector<std::string>& keys,
                                   const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"EVAL", script(file), std::to_string(keys.size())};
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

class LuaScripts : public RedisFixture {
 protected:
  RedisReply eval(const std::string& file, std::vector<std::string> keys, std::vector<std::string> args) {
    return server().command(eval_argv(file, keys, args));
  }
  RedisReply acquire(const std::string& owner, const std::string& lease_ms = "10000",
                     const std::string& request_id = kLateRequest, const std::string& will_wait = "0") {
    return eval("acquire.lua", {kLock, kCounter, latch(owner), kTurn, kWaiting, grant(owner), kDeadlines},
                {lease_ms, owner, request_id, will_wait});
  }
  RedisReply release(const std::string& owner, const std::string& request_id,
                     const std::string& yield_ms = "0") {
    return eval("release.lua", {kLock, kChannel, latch(owner), kTurn, kWaiting, grant(owner), kDeadlines},
                {owner, "5000", request_id, yield_ms});
  }
  bool exists(const std::string& key) { return server().command({"EXISTS", key}).integer == 1; }
  std::string get(const std::string& key) { return server().command({"GET", key}).str; }
  long long pttl() { return server().command({"PTTL", kLock}).integer; }
  RedisReply hgetall() { return server().command({"HGETALL", kLock}); }
  // The lock's owner field, "" when it is free.
  std::string holder() {
    const RedisReply fields = hgetall();
    return fields.elements.empty() ? "" : fields.elements[0].str;
  }
};

long long server_time_us(RedisServer& server) {
  const RedisReply now = server.command({"TIME"});
  return std::stoll(now.elements[0].str) * 1000000 + std::stoll(now.elements[1].str);
}

TEST_F(LuaScripts, AcquireGrantsAFreeLockWithATokenFromTheServerClock) {
  const long long before_us = server_time_us(server());
  const RedisReply reply = acquire(kMine);
  ASSERT_EQ(reply.type, RedisReply::Type::integer) << "a grant is its token";
  EXPECT_GE(reply.integer, before_us) << "a fresh counter starts at the server's time in µs";
  EXPECT_EQ(get(kCounter), std::to_string(reply.integer));
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
  EXPECT_EQ(reply.integer, ahead + 1);
  EXPECT_EQ(get(kCounter), std::to_string(ahead + 1));
}

TEST_F(LuaScripts, AcquireTokenIsTheClockWhenTheCounterIsBehind) {
  server().command({"SET", kCounter, "41"});
  const long long before_us = server_time_us(server());
  const RedisReply reply = acquire(kMine);
  ASSERT_EQ(reply.type, RedisReply::Type::integer);
  EXPECT_GE(reply.integer, before_us);
  EXPECT_LE(reply.integer, server_time_us(server()));
  EXPECT_EQ(get(kCounter), std::to_string(reply.integer));
}

TEST_F(LuaScripts, AcquireRetriedUnderItsRequestIdKeepsItsTokenAndCountsOnce) {
  const long long token = acquire(kMine, "10000").integer;
  EXPECT_EQ(get(grant(kMine)), kLateRequest + " " + std::to_string(token)) << "the grant is recorded";
  EXPECT_GT(server().command({"PTTL", grant(kMine)}).integer, 9000) << "for the grant's lease";
  const RedisReply again = acquire(kMine, "20000");
  ASSERT_EQ(again.type, RedisReply::Type::integer);
  EXPECT_EQ(again.integer, token) << "a retried grant must not take a new token";
  EXPECT_EQ(get(kCounter), std::to_string(token));
  EXPECT_EQ(hgetall().elements[1].str, "1") << "a retried grant must not count twice";
  EXPECT_GT(pttl(), 15000) << "the retry renews the lease";
}

// The owner's field under another request id: a hold a restart from an older
// snapshot (or a failover to a lagging replica) brought back, whose release and
// the grants after it were lost with the counter's last values.
TEST_F(LuaScripts, AcquireFindingTheOwnersFieldUnderAnotherRequestIsAFreshGrant) {
  const long long old_token = acquire(kMine, "10000", request(500)).integer;
  const long long later = server_time_us(server()) + 3600LL * 1000000;
  server().command({"SET", kCounter, std::to_string(later)});  // grants since, as far as the clock
  const RedisReply again = acquire(kMine, "20000", request(501));
  ASSERT_EQ(again.type, RedisReply::Type::integer);
  EXPECT_EQ(again.integer, later + 1) << "the old hold's token " << old_token << " would be refused";
  EXPECT_EQ(get(kCounter), std::to_string(later + 1));
  EXPECT_EQ(get(grant(kMine)), request(501) + " " + std::to_string(later + 1));
  EXPECT_EQ(hgetall().elements[1].str, "1") << "one hold, counted once";
  EXPECT_GT(pttl(), 15000);
  EXPECT_EQ(acquire(kMine, "20000", request(501)).integer, later + 1) << "and its own retry keeps it";
}

// The non-reentrant lock (ARGV[5] = '1'): the owner's field under another
// request id is another acquire of the same owner (another thread of an
// object-owned lock), refused as another owner's is; its own retry keeps its grant.
TEST_F(LuaScripts, AcquireOfTheNonReentrantLockRefusesTheOwnersFieldUnderAnotherRequest) {
  const auto acquire_once = [&](const std::string& request_id) {
    return eval("acquire.lua", {kLock, kCounter, latch(kMine), kTurn, kWaiting, grant(kMine), kDeadlines},
                {"10000", kMine, request_id, "0", "1"});
  };
  const long long token = acquire_once(request(500)).integer;
  const std::string counter = get(kCounter);
  const RedisReply refused = acquire_once(request(501));
  ASSERT_EQ(refused.elements.size(), 1u) << "not granted: {the holder's PTTL}";
  EXPECT_GT(refused.elements[0].integer, 9000);
  EXPECT_EQ(get(kCounter), counter);
  EXPECT_EQ(get(grant(kMine)), request(500) + " " + std::to_string(token)) << "the hold's grant is kept";
  const RedisReply retried = acquire_once(request(500));
  ASSERT_EQ(retried.type, RedisReply::Type::integer);
  EXPECT_EQ(retried.integer, token);
}

TEST_F(LuaScripts, AcquireOfAHeldLockReturnsTheHoldersPttlAndTouchesNothing) {
  acquire(kTheirs, "7000");
  const std::string counter = get(kCounter);
  const RedisReply reply = acquire(kMine);
  ASSERT_EQ(reply.elements.size(), 1u) << "not granted: {the holder's PTTL}";
  EXPECT_GT(reply.elements[0].integer, 6000);
  EXPECT_LE(reply.elements[0].integer, 7000);
  EXPECT_EQ(get(kCounter), counter);
  EXPECT_EQ(hgetall().elements[0].str, kTheirs);
}

TEST_F(LuaScripts, AcquireOfAKeyOfAnotherTypeFailsAndLeavesIt) {
  server().command({"SET", kLock, "not a lock"});
  EXPECT_TRUE(acquire(kMine).is_error());
  EXPECT_EQ(get(kLock), "not a lock");
}

// A lease the server would refuse once the hash was written left a lock with
// no expiry that nobody could take again: the script refuses it first.
TEST_F(LuaScripts, AcquireRefusesALeaseOutOfBoundsBeforeWritingAnything) {
  for (const std::string lease : {"0", "-5", "", "abc", "1.5", "1e3", " 100", "31536000001",
                                  "9223372036854775807", "99999999999999999999999"}) {
    const RedisReply reply = acquire(kMine, lease);
    ASSERT_TRUE(reply.is_error()) << "lease '" << lease << "'";
    EXPECT_NE(reply.str.find("lease"), std::string::npos) << reply.str;
    EXPECT_FALSE(exists(kLock)) << "lease '" << lease << "' wrote the lock";
    EXPECT_FALSE(exists(kCounter)) << "lease '" << lease << "' took a token";
  }
}

TEST_F(LuaScripts, AcquireAcceptsTheLongestLease) {
  const RedisReply reply = acquire(kMine, "31536000000");
  ASSERT_EQ(reply.type, RedisReply::Type::integer) << reply.str;
  EXPECT_GT(pttl(), 31535000000LL);
}

TEST_F(LuaScripts, AcquireWithACounterThatIsNotANumberFailsBeforeWriting) {
  server().command({"SET", kCounter, "seven"});
  const RedisReply reply = acquire(kMine);
  ASSERT_TRUE(reply.is_error());
  EXPECT_NE(reply.str.find(kCounter), std::string::npos) << reply.str;
  EXPECT_FALSE(exists(kLock));
  EXPECT_EQ(get(kCounter), "seven");
}

TEST_F(LuaScripts, AcquireWithACounterOfAnotherTypeFailsBeforeWriting) {
  server().command({"HSET", kCounter, "f", "1"});
  EXPECT_TRUE(acquire(kMine).is_error());
  EXPECT_FALSE(exists(kLock));
}

// Out of memory, Redis refuses a script's first write that could grow memory.
TEST_F(LuaScripts, AcquireOutOfMemoryFailsBeforeWriting) {
  server().command({"CONFIG", "SET", "maxmemory", "1"});
  const RedisReply reply = acquire(kMine);
  server().command({"CONFIG", "SET", "maxmemory", "0"});
  ASSERT_TRUE(reply.is_error());
  EXPECT_EQ(reply.str.substr(0, 3), "OOM") << reply.str;
  EXPECT_FALSE(exists(kLock));
}

TEST_F(LuaScripts, ReleaseByTheOwnerDeletesPublishesAndRemembersTheOutcome) {
  acquire(kMine);
  RedisConnection listener = server().connect();
  listener.command({"SUBSCRIBE", kChannel});
  EXPECT_EQ(release(kMine, request(1)).integer, 1);
  EXPECT_FALSE(exists(kLock));
  const std::optional<RedisReply> message = listener.read_pushed();
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(message->elements[2].str, "0");
  EXPECT_EQ(get(latch(kMine)), request(1));
  EXPECT_GT(server().command({"PTTL", latch(kMine)}).integer, 4000)
      << "the latch outlives a retry, then goes";
  EXPECT_FALSE(exists(grant(kMine))) << "the grant key goes with the hold";
}

TEST_F(LuaScripts, ReleaseRetriedAfterALostReplyAnswersTheSame) {
  acquire(kMine);
  ASSERT_EQ(release(kMine, request(1)).integer, 1);
  acquire(kTheirs);
  EXPECT_EQ(release(kMine, request(1)).integer, 1) << "the latch answers the retry";
  EXPECT_EQ(hgetall().elements[0].str, kTheirs) << "and the retry leaves the next holder alone";
}

TEST_F(LuaScripts, ReleaseDuplicateOfAnEarlierRequestLeavesTheOwnersNewHold) {
  acquire(kMine);
  ASSERT_EQ(release(kMine, request(9)).integer, 1);
  acquire(kMine);
  ASSERT_EQ(release(kMine, request(10)).integer, 1);
  acquire(kMine);
  EXPECT_EQ(release(kMine, request(10)).integer, 1);
  EXPECT_EQ(release(kMine, request(9)).integer, 1) << "a late copy of request 9 (10 is later, though shorter "
                                                      "digits compare greater)";
  EXPECT_TRUE(exists(kLock)) << "a late copy of an earlier release must not end the owner's new hold";
  EXPECT_EQ(get(latch(kMine)), request(10));
}

TEST_F(LuaScripts, ReleaseOfALaterRequestIsNotTakenForAnEarlierOne) {
  acquire(kMine);
  ASSERT_EQ(release(kMine, request(9)).integer, 1);
  acquire(kMine);
  EXPECT_EQ(release(kMine, request(10)).integer, 1);
  EXPECT_FALSE(exists(kLock)) << "request 10 comes after 9: it releases, though '9' > '1'";
  EXPECT_EQ(get(latch(kMine)), request(10));
}

TEST_F(LuaScripts, ReleaseKeepsOneLatchPerOwnerWhateverTheReleases) {
  for (int count = 1; count <= 5; ++count) {
    acquire(kMine);
    ASSERT_EQ(release(kMine, request(count)).integer, 1);
  }
  const RedisReply latches = server().command({"KEYS", "redisson_unlock_latch:*"});
  ASSERT_EQ(latches.elements.size(), 1u);
  EXPECT_EQ(latches.elements[0].str, latch(kMine));
}

TEST_F(LuaScripts, ReleaseOutOfMemoryStillReleases) {
  acquire(kMine);
  server().command({"CONFIG", "SET", "maxmemory", "1"});
  const RedisReply reply = release(kMine, request(1));
  server().command({"CONFIG", "SET", "maxmemory", "0"});
  EXPECT_EQ(reply.integer, 1) << reply.str;
  EXPECT_FALSE(exists(kLock)) << "a lock that cannot be released while memory is short";
  EXPECT_EQ(get(latch(kMine)), request(1));
}

TEST_F(LuaScripts, ReleaseByANonOwnerLeavesTheHoldAndOutranksTheOwnersOlderAcquires) {
  acquire(kTheirs);
  const long long before = pttl();
  EXPECT_EQ(release(kMine, request(2)).integer, 0);
  EXPECT_EQ(hgetall().elements[0].str, kTheirs);
  EXPECT_LE(pttl(), before);
  EXPECT_EQ(get(latch(kMine)), request(2)) << "a withdrawal that found nothing is remembered";
}

TEST_F(LuaScripts, AcquireOlderThanTheOwnersWithdrawalIsRefusedWhenItArrivesLate) {
  // A timed-out acquire (request 4) withdrawn (request 5) before a paused
  // server runs it: the acquire must then take nothing.
  ASSERT_EQ(release(kMine, request(5)).integer, 0);
  const RedisReply stale = acquire(kMine, "10000", request(4));
  ASSERT_EQ(stale.elements.size(), 1u) << "refused, not granted";
  EXPECT_EQ(stale.elements[0].integer, -1);
  EXPECT_FALSE(exists(kLock));
  EXPECT_FALSE(exists(kCounter)) << "no token spent";
  EXPECT_EQ(acquire(kMine, "10000", request(6)).type, RedisReply::Type::integer)
      << "a later acquire is granted";
}

TEST_F(LuaScripts, AReleaseNamesTheLongestWaitingOwnersTurn) {
  const std::string kFirst = "client-c:1";
  const std::string kSecond = "client-d:1";
  acquire(kMine);
  const RedisReply first = acquire(kFirst, "10000", kLateRequest, "1");
  ASSERT_EQ(first.elements.size(), 2u) << "a waiter learns the number its turn is named by";
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  acquire(kSecond, "10000", kLateRequest, "1");
  RedisConnection listener = server().connect();
  listener.command({"SUBSCRIBE", kChannel});
  ASSERT_EQ(release(kMine, request(1), "5000").integer, 1);
  EXPECT_EQ(get(kTurn), kFirst);
  const std::optional<RedisReply> named = listener.read_pushed();
  ASSERT_TRUE(named && named->elements.size() == 3u);
  EXPECT_EQ(named->elements[2].str, std::to_string(first.elements[1].integer)) << "the turn is named on the channel";
  const std::optional<RedisReply> redissons = listener.read_pushed();
  ASSERT_TRUE(redissons && redissons->elements.size() == 3u);
  EXPECT_EQ(redissons->elements[2].str, "0") << "then Redisson's message";
  EXPECT_EQ(acquire(kSecond, "10000", kLateRequest, "1").elements.size(), 2u) << "another waiter waits";
  ASSERT_EQ(acquire(kFirst, "10000", kLateRequest, "1").type, RedisReply::Type::integer);
  EXPECT_FALSE(exists(kTurn)) << "the grant ends the turn";
  const RedisReply waiting = server().command({"ZRANGE", kWaiting, "0", "-1"});
  ASSERT_EQ(waiting.elements.size(), 1u) << "the grant took its owner out";
  EXPECT_EQ(waiting.elements[0].str, kSecond) << "the other waiter keeps its place for the next turn";
}

TEST_F(LuaScripts, ASingleAttemptGetsAFreeLockDuringATurnAndJoinsNothing) {
  acquire(kMine);
  acquire(kTheirs, "10000", kLateRequest, "1");
  RedisConnection listener = server().connect();
  listener.command({"SUBSCRIBE", kChannel});
  ASSERT_EQ(release(kMine, request(1), "5000").integer, 1);
  ASSERT_EQ(get(kTurn), kTheirs);
  EXPECT_EQ(acquire(kMine).type, RedisReply::Type::integer) << "a try barges, as tryLock() does";
  EXPECT_EQ(get(kTurn), kTheirs) << "the waiter keeps its turn";
  server().command({"DEL", kLock});
  acquire(kMine);
  EXPECT_EQ(acquire("client-c:1").elements.size(), 1u);
  EXPECT_EQ(server().command({"ZCARD", kWaiting}).integer, 1) << "a single attempt does not join the waiters";
}

TEST_F(LuaScripts, ATurnNeedsALiveWaiterAListenerCanWake) {
  acquire(kMine);
  acquire(kTheirs, "10000", kLateRequest, "1");
  ASSERT_EQ(release(kMine, request(1), "5000").integer, 1);
  EXPECT_FALSE(exists(kTurn)) << "no subscriber heard the release";

  RedisConnection listener = server().connect();
  listener.command({"SUBSCRIBE", kChannel});
  acquire(kMine);
  server().command({"ZADD", kDeadlines, "1", kTheirs});  // its deadline passed long ago
  ASSERT_EQ(release(kMine, request(2), "5000").integer, 1);
  EXPECT_FALSE(exists(kTurn)) << "a dead waiter gets no turn";
  EXPECT_FALSE(exists(kWaiting)) << "and is dropped";

  acquire(kMine);
  acquire(kTheirs, "10000", kLateRequest, "1");
  ASSERT_EQ(release(kMine, request(3), "0").integer, 1);
  EXPECT_FALSE(exists(kTurn)) << "a turn of 0 ms is off";
  EXPECT_EQ(acquire(kMine, "10000", kLateRequest, "1").type, RedisReply::Type::integer);
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
  RedisConnection listener = server().connect();
  listener.command({"SUBSCRIBE", kChannel});
  EXPECT_EQ(eval("keep.lua", {kLock, kChannel}, {kMine, "60000"}).integer, 1);
  const std::optional<RedisReply> message = listener.read_pushed();
  ASSERT_TRUE(message.has_value()) << "waiters must learn the new lease";
  EXPECT_EQ(message->elements[2].str, "0");
  const RedisReply fields = hgetall();
  ASSERT_EQ(fields.elements.size(), 2u);
  EXPECT_EQ(fields.elements[0].str, kMine + ":kept");
  EXPECT_GT(pttl(), 59000);
  EXPECT_EQ(acquire(kMine).elements.size(), 1u) << "the owner no longer finds its field: {PTTL}";
  EXPECT_EQ(eval("renew.lua", {kLock}, {"30000", kMine}).integer, 0) << "nor does its watchdog";
}

TEST_F(LuaScripts, KeepRetriedAfterALostReplyAnswersTheSameAndTouchesNothing) {
  acquire(kMine);
  ASSERT_EQ(eval("keep.lua", {kLock, kChannel}, {kMine, "60000"}).integer, 1);
  server().command({"PEXPIRE", kLock, "5000"});
  EXPECT_EQ(eval("keep.lua", {kLock, kChannel}, {kMine, "60000"}).integer, 1);
  EXPECT_LE(pttl(), 5000) << "a retry must not extend the kept hold";
}

TEST_F(LuaScripts, KeepByANonOwnerTouchesNothing) {
  acquire(kTheirs, "7000");
  EXPECT_EQ(eval("keep.lua", {kLock, kChannel}, {kMine, "60000"}).integer, 0);
  EXPECT_EQ(hgetall().elements[0].str, kTheirs);
  EXPECT_LE(pttl(), 7000);
  EXPECT_EQ(eval("keep.lua", {"free-lock", kChannel}, {kMine, "60000"}).integer, 0);
  EXPECT_EQ(server().command({"EXISTS", "free-lock"}).integer, 0);
}

TEST_F(LuaScripts, InspectReadsHoldersPttlAndLastToken) {
  const long long token = acquire(kMine, "9000").integer;
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

// The same scripts run by users an ACL restricts: a refused command must come
// before the lock is written, or the write it would follow must be undone.
class LuaScriptsUnderAcl : public LuaScripts {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {
        "user no-pexpire on >pw ~* &* +@all -pexpire",
        "user no-channel on >pw ~* resetchannels +@all",
    };
    return config;
  }
  RedisReply eval_as(const std::string& user, const std::string& file, const std::vector<std::string>& keys,
                     const std::vector<std::string>& args) {
    RedisConnection connection = RedisConnection::tcp("127.0.0.1", server().port(), std::chrono::seconds(5));
    const RedisReply auth = connection.command({"AUTH", user, "pw"});
    if (auth.is_error()) throw std::runtime_error("AUTH " + user + ": " + auth.str);
    return connection.command(eval_argv(file, keys, args));
  }
};

TEST_F(LuaScriptsUnderAcl, AcquireWhosePexpireIsRefusedDeletesTheHashItWrote) {
  const RedisReply reply =
      eval_as("no-pexpire", "acquire.lua", {kLock, kCounter, latch(kMine), kTurn, kWaiting, grant(kMine), kDeadlines},
              {"10000", kMine, kLateRequest, "0"});
  ASSERT_TRUE(reply.is_error());
  EXPECT_FALSE(exists(kLock)) << "a hash without an expiry is a lock nobody can take again";
}

TEST_F(LuaScriptsUnderAcl, ReleaseThatCannotPublishLeavesTheLockHeld) {
  acquire(kMine);
  const RedisReply reply =
      eval_as("no-channel", "release.lua", {kLock, kChannel, latch(kMine), kTurn, kWaiting, grant(kMine), kDeadlines},
              {kMine, "5000", request(1), "0"});
  ASSERT_TRUE(reply.is_error());
  EXPECT_EQ(holder(), kMine) << "deleted without waking the waiters";
  EXPECT_FALSE(exists(latch(kMine)));
}

}  // namespace
}  // namespace dlock_test
