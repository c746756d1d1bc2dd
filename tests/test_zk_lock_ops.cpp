// The ZooKeeper backend's side of the core's seam (core/lock_ops.hpp,
// core/hold_keeper.hpp) against a real server (ZkEnsemble): ZkLockOps and its
// ZkLockWait as the core's wait engine drives them (a first try, a watch, a
// try per signal), releases by GrantRef, the read-write lock's sides, and the
// keeper's one round trip for every due hold. Built only with the ZooKeeper C
// client (DLOCK_WITH_ZOOKEEPER).
#include <gtest/gtest.h>
#include <zookeeper/zookeeper.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_keeper.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_wait.hpp"
#include "common/error.hpp"
#include "tcp_proxy.hpp"
#include "wait_until.hpp"
#include "zk_ensemble.hpp"
#include "zk_one_node_suite.hpp"

namespace dlock_test {
namespace {

using dlock::GrantRef;
using dlock::LockKind;
using dlock::LockWait;
using dlock::Waiter;
using dlock::ZkLockOps;
using dlock::zk::ZkSession;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::unique_ptr<ZkSession> session_on(const std::string& hosts, milliseconds command_timeout = seconds(10)) {
  dlock::zk::SessionOptions options;
  options.hosts = hosts;
  options.session_timeout_ms = ZkEnsemble::max_session_timeout_ms;
  options.connect_timeout = seconds(10);
  options.command_timeout = command_timeout;
  return std::make_unique<ZkSession>(options);
}

// `session` as the client's session of the moment, not owned: the test's.
std::function<std::shared_ptr<ZkSession>()> session_of(ZkSession& session) {
  return [&session] { return std::shared_ptr<ZkSession>(std::shared_ptr<ZkSession>(), &session); };
}

std::shared_ptr<ZkLockOps> ops_on(ZkSession& session, const std::string& name,
                                  LockKind kind = LockKind::reentrant) {
  return std::make_shared<ZkLockOps>(session_of(session), name, kind);
}

GrantRef grant_of(const std::string& owner_field, const LockWait::Try& granted) {
  return GrantRef{owner_field, granted.locator, granted.token};
}

// Whether `waiter` is signalled within `timeout`; clears the signal.
bool signalled_within(Waiter& waiter, milliseconds timeout) {
  return wait_until([&] { return waiter.take_signal().came; }, timeout);
}

std::size_t children_count(ZkSession& session, const std::string& path) {
  return dlock::zk::get_children(session, path).children.size();
}

// `holder`'s grant to h:1, then w:1's wait on `waiting`, refused and watching `waiter`.
struct HeldAndAwaited {
  std::unique_ptr<LockWait> holding;
  LockWait::Try held;
  std::unique_ptr<LockWait> waiting;
};

HeldAndAwaited held_and_awaited(ZkLockOps& holder, ZkLockOps& waiting, Waiter& waiter) {
  HeldAndAwaited both;
  both.holding = holder.begin("h:1", -1);
  both.held = both.holding->attempt(0, false);
  EXPECT_TRUE(both.held.granted);
  both.waiting = waiting.begin("w:1", -1);
  EXPECT_FALSE(both.waiting->attempt(-1, false).granted);
  both.waiting->watch(waiter);
  return both;
}

class ZkLockOpsOneNode : public dlock_test::ZkOneNodeSuite {};

TEST_F(ZkLockOpsOneNode, GrantIsOurNodeFoundAgainByItsLocatorAndCzxid) {
  auto session = session_on(hosts());
  auto ops = ops_on(*session, "granted");
  EXPECT_STREQ(ops->backend(), "zookeeper");
  EXPECT_FALSE(ops->fixed_leases());
  EXPECT_FALSE(ops->keeps());
  EXPECT_EQ(ops->hold_key(), "granted");
  EXPECT_EQ(ops->held()->hold_key(), "granted");
  EXPECT_EQ(ops->hold_field("uuid:7"), "uuid:7");
  EXPECT_EQ(ops->ttl_ms(), -2);
  EXPECT_FALSE(ops->is_locked());

  auto wait = ops->begin("uuid:7", -1);
  const auto before = std::chrono::steady_clock::now();
  const LockWait::Try granted = wait->attempt(0, false);
  ASSERT_TRUE(granted.granted);
  EXPECT_GE(granted.sent_at, before);
  EXPECT_FALSE(granted.retry_after);
  EXPECT_EQ(granted.locator.rfind("/dlock/granted/_c_", 0), 0u) << granted.locator;
  const auto node = dlock::zk::get(*session, granted.locator);
  ASSERT_EQ(node.rc, ZOK);
  EXPECT_EQ(static_cast<std::uint64_t>(node.stat.czxid), granted.token);
  EXPECT_EQ(node.data, "uuid:7");  // who holds it, for dlock status
  EXPECT_TRUE(ops->is_locked());
  EXPECT_EQ(ops->ttl_ms(), -1);  // held, with no lease
  EXPECT_THROW(ops->extend(dlock::GrantRef{"uuid:7", "", 0}, 1000), dlock::UnsupportedError);

  EXPECT_TRUE(ops->release(grant_of("uuid:7", granted), "release-1", 10000));
  EXPECT_EQ(dlock::zk::exists(*session, granted.locator).rc, ZNONODE);
  EXPECT_FALSE(ops->is_locked());
  // Released once: the next release of that grant finds it gone.
  EXPECT_FALSE(ops->release(grant_of("uuid:7", granted), "release-2", 10000));
}

TEST_F(ZkLockOpsOneNode, RefusedWaiterIsWokenByItsWatchOnceTheHolderReleases) {
  auto holder_session = session_on(hosts());
  auto waiter_session = session_on(hosts());
  auto holder_ops = ops_on(*holder_session, "handoff");
  auto waiter_ops = ops_on(*waiter_session, "handoff");
  auto holding = holder_ops->begin("a:1", -1);
  const LockWait::Try held = holding->attempt(0, false);
  ASSERT_TRUE(held.granted);

  auto waiting = waiter_ops->begin("b:1", -1);
  const LockWait::Try refused = waiting->attempt(-1, false);
  EXPECT_FALSE(refused.granted);
  EXPECT_FALSE(refused.retry_after) << "the watch is the news, not a timer";
  Waiter waiter;
  waiting->watch(waiter);
  EXPECT_FALSE(signalled_within(waiter, milliseconds(300)));
  // A second try without news is refused again, and the watch set again.
  EXPECT_FALSE(waiting->attempt(-1, false).granted);
  waiting->watch(waiter);

  ASSERT_TRUE(holder_ops->release(grant_of("a:1", held), "r", 10000));
  ASSERT_TRUE(signalled_within(waiter, seconds(5)));
  const LockWait::Try granted = waiting->attempt(-1, true);
  ASSERT_TRUE(granted.granted);
  EXPECT_GT(granted.token, held.token);
  EXPECT_TRUE(waiter_ops->release(grant_of("b:1", granted), "r", 10000));
}

// Curator's mutex is FIFO: each waiter watches the node just ahead of it, so a
// release wakes the next waiter alone.
TEST_F(ZkLockOpsOneNode, ReleaseWakesOnlyTheNextWaiterInQueueOrder) {
  constexpr int waiters = 3;
  auto session = session_on(hosts());
  auto ops = ops_on(*session, "fifo");
  auto holding = ops->begin("h:1", -1);
  LockWait::Try current = holding->attempt(0, false);
  ASSERT_TRUE(current.granted);
  std::string current_field = "h:1";
  std::vector<std::unique_ptr<LockWait>> waits;
  std::vector<std::unique_ptr<Waiter>> woken;
  for (int i = 0; i < waiters; ++i) {
    waits.push_back(ops->begin("w:" + std::to_string(i), -1));
    ASSERT_FALSE(waits.back()->attempt(-1, false).granted);
    woken.push_back(std::make_unique<Waiter>());
    waits.back()->watch(*woken.back());
  }
  for (int next = 0; next < waiters; ++next) {
    ASSERT_TRUE(ops->release(grant_of(current_field, current), "r" + std::to_string(next), 10000));
    ASSERT_TRUE(signalled_within(*woken[next], seconds(5))) << "waiter " << next;
    std::this_thread::sleep_for(milliseconds(150));  // room for a wrong wake-up to show
    for (int other = next + 1; other < waiters; ++other) {
      EXPECT_FALSE(woken[other]->take_signal().came)
          << "waiter " << other << " woken by " << next << "'s turn";
    }
    const LockWait::Try granted = waits[next]->attempt(-1, true);
    ASSERT_TRUE(granted.granted) << next;
    EXPECT_GT(granted.token, current.token);
    current = granted;
    current_field = "w:" + std::to_string(next);
  }
  EXPECT_TRUE(ops->release(grant_of(current_field, current), "last", 10000));
  EXPECT_EQ(children_count(*session, ops->path()), 0u);
}

// A release is one delete of the grant's node: its path carries the UUID of
// the attempt that created it, so whatever else is in the lock is never
// touched, and a node gone is a release that finds nothing.
TEST_F(ZkLockOpsOneNode, NodeGoneIsNotReleasedAndOthersAreUntouched) {
  auto session = session_on(hosts());
  auto admin = session_on(hosts());
  auto ops = ops_on(*session, "gone");
  auto wait = ops->begin("a:1", -1);
  const LockWait::Try granted = wait->attempt(0, false);
  ASSERT_TRUE(granted.granted);
  ASSERT_EQ(dlock::zk::remove(*admin, granted.locator), ZOK);  // deleted by another client
  auto next = ops_on(*admin, "gone")->begin("b:1", -1);
  const LockWait::Try taken = next->attempt(0, false);
  ASSERT_TRUE(taken.granted);
  EXPECT_FALSE(ops->release(grant_of("a:1", granted), "r1", 10000));
  EXPECT_EQ(dlock::zk::exists(*admin, taken.locator).rc, ZOK) << "the next holder's node was deleted";
  EXPECT_FALSE(ops->release(grant_of("a:1", granted), "r2", 10000));
}

// A release that failed with the connection is retried under its request id
// (a pending request): its delete went unanswered, and may have reached the
// server when the link came back (the proxy holds what it was sent) or not.
// Either way the retry answers "released" and the node is gone; a later try
// finds nothing of its own to release.
TEST_F(ZkLockOpsOneNode, RetryOfAReleaseCutOffByTheLinkReleases) {
  TcpProxy proxy(server_->client_port(0));
  auto session = session_on("127.0.0.1:" + std::to_string(proxy.port()), milliseconds(500));
  auto admin = session_on(hosts());
  auto ops = ops_on(*session, "cut-release");
  auto wait = ops->begin("a:1", -1);
  const LockWait::Try granted = wait->attempt(0, false);
  ASSERT_TRUE(granted.granted);
  const dlock::Settle settle = ops->settle_release(grant_of("a:1", granted), "release-7", 10000);
  proxy.partition();
  EXPECT_THROW(settle(std::nullopt), dlock::ConnectionError);
  proxy.heal();
  ASSERT_TRUE(session->wait_connected(seconds(5)));
  EXPECT_EQ(settle(std::nullopt), 1);
  EXPECT_EQ(dlock::zk::exists(*admin, granted.locator).rc, ZNONODE);
  EXPECT_EQ(settle(std::nullopt), 0) << "settled: a later try finds it gone";
}

// The record that makes a retry of a release idempotent: a delete sent on a
// session whose answer was lost counts as ours only in that same session, once.
TEST(ZkDeletesInDoubt, ADeleteSentCountsOnceInTheSessionThatSentIt) {
  dlock::ZkDeletesInDoubt in_doubt;
  EXPECT_FALSE(in_doubt.take("r1", 7)) << "never sent";
  in_doubt.sent("r1", 7, seconds(60));
  in_doubt.sent("r2", 7, seconds(60));
  EXPECT_TRUE(in_doubt.take("r1", 7));
  EXPECT_FALSE(in_doubt.take("r1", 7)) << "taken once";
  EXPECT_FALSE(in_doubt.take("r2", 8)) << "another session: the node may have gone with the old one";
  EXPECT_FALSE(in_doubt.take("r2", 7)) << "forgotten when asked from another session";
  in_doubt.sent("r3", 7, milliseconds(0));
  in_doubt.sent("r4", 7, seconds(60));  // forgets those whose latch is over
  EXPECT_FALSE(in_doubt.take("r3", 7));
  EXPECT_TRUE(in_doubt.take("r4", 7));
}

TEST_F(ZkLockOpsOneNode, AbandonedWaiterLeavesNoNode) {
  auto session = session_on(hosts());
  auto ops = ops_on(*session, "abandon");
  Waiter waiter;
  auto [holding, held, waiting] = held_and_awaited(*ops, *ops, waiter);
  ASSERT_EQ(children_count(*session, ops->path()), 2u);
  waiting->abandon();
  EXPECT_TRUE(wait_until([&] { return children_count(*session, ops->path()) == 1; }, seconds(5)));
  waiting.reset();
  EXPECT_TRUE(ops->release(grant_of("h:1", held), "r", 10000));
  EXPECT_FALSE(signalled_within(waiter, milliseconds(200))) << "an abandoned wait's watch fired";
}

// A withdrawal (a release of a grant without a locator: an acquire whose try
// failed with the connection) finds the owner's node by its protected prefix.
TEST_F(ZkLockOpsOneNode, WithdrawalFindsTheOwnersNodeByItsPrefix) {
  auto session = session_on(hosts());
  auto ops = ops_on(*session, "withdraw");
  auto holding = ops->begin("h:1", -1);
  const LockWait::Try held = holding->attempt(0, false);
  ASSERT_TRUE(held.granted);
  auto waiting = ops->begin("w:1", -1);
  ASSERT_FALSE(waiting->attempt(-1, false).granted);
  ASSERT_EQ(children_count(*session, ops->path()), 2u);
  const auto waits = session->waits_for_server();
  EXPECT_FALSE(ops->release(GrantRef{"nobody:1", "", 0}, "r0", 10000)) << "an owner with no wait";
  EXPECT_EQ(session->waits_for_server(), waits) << "nothing to find: no round trip";
  EXPECT_TRUE(ops->release(GrantRef{"w:1", "", 0}, "r1", 10000));
  EXPECT_EQ(children_count(*session, ops->path()), 1u);
  waiting->abandon();
  EXPECT_FALSE(ops->release(GrantRef{"w:1", "", 0}, "r2", 10000)) << "the wait ended: nothing unheard";
  EXPECT_TRUE(ops->release(grant_of("h:1", held), "r", 10000));
}

// A force release deletes every node; a waiter whose node went queues again
// and, the lock being free, is granted.
TEST_F(ZkLockOpsOneNode, ForceReleaseFreesTheLockAndTheWaiterQueuesAgain) {
  auto session = session_on(hosts());
  auto admin = session_on(hosts());
  auto ops = ops_on(*session, "forced");
  auto holding = ops->begin("h:1", -1);
  const LockWait::Try held = holding->attempt(0, false);
  ASSERT_TRUE(held.granted);
  auto waiting = ops->begin("w:1", -1);
  ASSERT_FALSE(waiting->attempt(-1, false).granted);
  Waiter waiter;
  waiting->watch(waiter);
  EXPECT_TRUE(ops_on(*admin, "forced")->force_release());
  ASSERT_TRUE(signalled_within(waiter, seconds(5)));
  const LockWait::Try granted = waiting->attempt(-1, true);
  ASSERT_TRUE(granted.granted);
  EXPECT_GT(granted.token, held.token);
  EXPECT_FALSE(ops->release(grant_of("h:1", held), "r1", 10000)) << "the forced-out holder's release";
  EXPECT_TRUE(ops->release(grant_of("w:1", granted), "r2", 10000));
  EXPECT_FALSE(ops->force_release());
}

// Curator's InterProcessReadWriteLock: readers share; a writer waits for every
// node ahead; a reader behind a waiting writer waits for it.
TEST_F(ZkLockOpsOneNode, ReadAndWriteSidesExcludeAsCuratorsDo) {
  auto session = session_on(hosts());
  auto reads = ops_on(*session, "rw", LockKind::read);
  auto writes = ops_on(*session, "rw", LockKind::write);
  EXPECT_NE(reads->hold_key(), writes->hold_key());
  EXPECT_NE(reads->hold_key(), "rw");
  EXPECT_EQ(reads->path(), writes->path());
  auto first_read = reads->begin("r:1", -1);
  auto second_read = reads->begin("r:2", -1);
  const LockWait::Try read1 = first_read->attempt(0, false);
  const LockWait::Try read2 = second_read->attempt(0, false);
  ASSERT_TRUE(read1.granted);
  ASSERT_TRUE(read2.granted) << "readers share";
  EXPECT_NE(read1.locator.find("__READ__"), std::string::npos) << read1.locator;
  auto writing = writes->begin("w:1", -1);
  ASSERT_FALSE(writing->attempt(-1, false).granted);
  Waiter writer;
  writing->watch(writer);
  auto late_read = reads->begin("r:3", -1);
  ASSERT_FALSE(late_read->attempt(-1, false).granted) << "a reader behind a waiting writer";
  Waiter late_reader;
  late_read->watch(late_reader);

  ASSERT_TRUE(reads->release(grant_of("r:1", read1), "a", 10000));
  EXPECT_FALSE(writing->attempt(-1, true).granted) << "a reader is still ahead";
  writing->watch(writer);
  ASSERT_TRUE(reads->release(grant_of("r:2", read2), "b", 10000));
  ASSERT_TRUE(signalled_within(writer, seconds(5)));
  const LockWait::Try written = writing->attempt(-1, true);
  ASSERT_TRUE(written.granted);
  EXPECT_NE(written.locator.find("__WRIT__"), std::string::npos) << written.locator;
  EXPECT_FALSE(signalled_within(late_reader, milliseconds(200))) << "the writer still holds";
  ASSERT_TRUE(writes->release(grant_of("w:1", written), "c", 10000));
  ASSERT_TRUE(signalled_within(late_reader, seconds(5)));
  const LockWait::Try read3 = late_read->attempt(-1, true);
  ASSERT_TRUE(read3.granted);
  EXPECT_TRUE(reads->release(grant_of("r:3", read3), "d", 10000));
}

// A group's member that refused is woken by a release that opens the lock,
// every time (the watch sets itself again), and not by a node made, which only
// closes it: a wake-up for each node a refused try makes would have the
// waiters' tries wake each other without end.
TEST_F(ZkLockOpsOneNode, ReleaseWatchSignalsEveryRelease) {
  auto session = session_on(hosts());
  auto ops = ops_on(*session, "member");
  auto holding = ops->begin("m:0", -1);
  const LockWait::Try held = holding->attempt(0, false);
  ASSERT_TRUE(held.granted);
  Waiter waiter;
  auto watch = ops->watch_releases(waiter);
  EXPECT_FALSE(signalled_within(waiter, milliseconds(300))) << "a watch on a held lock";
  auto queued = ops->begin("m:2", -1);
  ASSERT_FALSE(queued->attempt(-1, false).granted);
  EXPECT_FALSE(signalled_within(waiter, milliseconds(300))) << "a node made behind the holder";
  queued->abandon();
  EXPECT_FALSE(signalled_within(waiter, milliseconds(300))) << "a waiter's node gone, the holder's still there";
  ASSERT_TRUE(ops->release(grant_of("m:0", held), "r", 10000));
  EXPECT_TRUE(signalled_within(waiter, seconds(5))) << "the release";
  for (int round = 0; round < 3; ++round) {
    auto wait = ops->begin("m:1", -1);
    const LockWait::Try granted = wait->attempt(0, false);
    ASSERT_TRUE(granted.granted);
    // A lock path made anew (its empty container parent is removed by the
    // server) may be listed empty just before our node comes: one wake-up.
    signalled_within(waiter, milliseconds(100));
    ASSERT_TRUE(ops->release(grant_of("m:1", granted), "r", 10000));
    ASSERT_TRUE(signalled_within(waiter, seconds(5))) << "the release, round " << round;
  }
  watch.reset();
  auto wait = ops->begin("m:1", -1);
  const LockWait::Try last = wait->attempt(0, false);
  ASSERT_TRUE(last.granted);
  ASSERT_TRUE(ops->release(grant_of("m:1", last), "r", 10000));
  EXPECT_FALSE(signalled_within(waiter, milliseconds(300))) << "a watch that was let go fired";
}

// When a group's member is woken: a read side is open while only readers
// hold or wait, the mutex and the write side only when no node is there.
TEST(ZkGrantableNow, ReadersShareWritersAndTheMutexWaitForNone) {
  const std::string reader = "_c_0f3e-__READ__0000000001";
  const std::string writer = "_c_9a1c-__WRIT__0000000002";
  EXPECT_TRUE(dlock::zk::grantable_now({}, dlock::zk::MutexKind::read));
  EXPECT_TRUE(dlock::zk::grantable_now({reader}, dlock::zk::MutexKind::read));
  EXPECT_FALSE(dlock::zk::grantable_now({reader, writer}, dlock::zk::MutexKind::read));
  EXPECT_FALSE(dlock::zk::grantable_now({reader}, dlock::zk::MutexKind::write));
  EXPECT_TRUE(dlock::zk::grantable_now({}, dlock::zk::MutexKind::write));
  EXPECT_FALSE(dlock::zk::grantable_now({"_c_77aa-lock-0000000003"}, dlock::zk::MutexKind::mutex));
  EXPECT_TRUE(dlock::zk::grantable_now({}, dlock::zk::MutexKind::mutex));
}

// A broken connection while the session may still own our node: the try is
// refused with a short retry, not an error; once the session may have
// expired (no answer for its timeout), it is an error the engine withdraws.
TEST_F(ZkLockOpsOneNode, WaitRidesOutABrokenConnectionWhileTheSessionMayLive) {
  TcpProxy proxy(server_->client_port(0));
  auto holder = session_on(hosts());
  auto session = session_on("127.0.0.1:" + std::to_string(proxy.port()), milliseconds(500));
  auto holder_ops = ops_on(*holder, "ride");
  auto ops = ops_on(*session, "ride");
  auto holding = holder_ops->begin("h:1", -1);
  const LockWait::Try held = holding->attempt(0, false);
  ASSERT_TRUE(held.granted);
  auto waiting = ops->begin("w:1", -1);
  ASSERT_FALSE(waiting->attempt(-1, false).granted);
  Waiter waiter;
  waiting->watch(waiter);

  proxy.partition();
  const LockWait::Try riding = waiting->attempt(-1, false);
  EXPECT_FALSE(riding.granted);
  ASSERT_TRUE(riding.retry_after);
  EXPECT_EQ(*riding.retry_after, dlock::zk::reconnect_pause);
  waiting->watch(waiter);  // nothing to set: the retry comes by itself
  proxy.heal();
  ASSERT_TRUE(holder_ops->release(grant_of("h:1", held), "r", 10000));
  ASSERT_TRUE(wait_until(
      [&] {
        const LockWait::Try next = waiting->attempt(-1, false);
        if (next.granted) EXPECT_TRUE(ops->release(grant_of("w:1", next), "r", 10000));
        return next.granted;
      },
      seconds(10)));

  auto later = holder_ops->begin("h:2", -1);
  const LockWait::Try held_again = later->attempt(0, false);
  ASSERT_TRUE(held_again.granted);
  auto stranded = ops->begin("w:2", -1);
  ASSERT_FALSE(stranded->attempt(-1, false).granted);
  proxy.partition();
  const auto cut_at = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(milliseconds(ZkEnsemble::max_session_timeout_ms + 500) -
                              (std::chrono::steady_clock::now() - cut_at));
  EXPECT_THROW(stranded->attempt(-1, false), dlock::ConnectionError);
  stranded->abandon();
  proxy.heal();
  EXPECT_TRUE(holder_ops->release(grant_of("h:2", held_again), "r", 10000));
  // Healed, the client learns that the server expired the session, and settles
  // the requests it had queued (the abandoned node's delete among them).
  EXPECT_TRUE(wait_until([&] { return session->state() == dlock::zk::SessionState::expired; }, seconds(10)));
}

// Ends `session` on the server as an administrator would: another handle
// takes it over with its id and password and closes it.
void expire(ZkSession& session, const std::string& hosts) {
  const clientid_t id = *zoo_client_id(session.handle());
  zhandle_t* other = zookeeper_init(hosts.c_str(), nullptr, ZkEnsemble::max_session_timeout_ms, &id, nullptr, 0);
  ASSERT_NE(other, nullptr);
  EXPECT_TRUE(wait_until([&] { return zoo_state(other) == ZOO_CONNECTED_STATE; }, seconds(10)));
  zookeeper_close(other);
}

// A waiter whose session the server expires queues again on the session of
// the moment (the client's new one), at the back, and is granted in turn.
TEST_F(ZkLockOpsOneNode, AWaitQueuesAgainOnTheNewSessionWhenItsOwnExpired) {
  auto holder = session_on(hosts());
  std::shared_ptr<ZkSession> first = session_on(hosts());
  std::shared_ptr<ZkSession> replacement;
  // As the client's session: a new one once the server expired it.
  auto ops = std::make_shared<ZkLockOps>(
      [&]() -> std::shared_ptr<ZkSession> {
        if (first->state() != dlock::zk::SessionState::expired) return first;
        if (!replacement) replacement = session_on(hosts());
        return replacement;
      },
      "requeued", LockKind::reentrant);
  auto holder_ops = ops_on(*holder, "requeued");
  Waiter waiter;
  auto [holding, held, waiting] = held_and_awaited(*holder_ops, *ops, waiter);

  expire(*first, hosts());
  ASSERT_TRUE(wait_until([&] { return first->state() == dlock::zk::SessionState::expired; }, seconds(10)));
  EXPECT_TRUE(signalled_within(waiter, seconds(5))) << "the expiry wakes the waiter";
  const LockWait::Try requeued = waiting->attempt(-1, false);
  EXPECT_FALSE(requeued.granted) << "granted while held";
  ASSERT_TRUE(replacement);
  EXPECT_EQ(children_count(*holder, "/dlock/requeued"), 2u) << "the holder's node and the new one";
  waiting->watch(waiter);

  ASSERT_TRUE(holder_ops->release(grant_of("h:1", held), "r", 10000));
  ASSERT_TRUE(signalled_within(waiter, seconds(10)));
  const LockWait::Try granted = waiting->attempt(-1, false);
  ASSERT_TRUE(granted.granted);
  EXPECT_GT(granted.token, held.token);
  const dlock::zk::StatResult node = dlock::zk::exists(*holder, granted.locator);
  ASSERT_EQ(node.rc, ZOK);
  EXPECT_EQ(node.stat.ephemeralOwner, replacement->session_id());
  EXPECT_TRUE(ops->release(grant_of("w:1", granted), "r", 10000));
}

dlock::Hold hold_of(const std::string& field, const LockWait::Try& granted) {
  dlock::Hold hold;
  hold.owner = 1;
  hold.grant = grant_of(field, granted);
  hold.count = 1;
  hold.lease_ms = ZkEnsemble::max_session_timeout_ms * 2 / 3;
  hold.watchdog = true;
  return hold;
}

// The keeper's renewal: every due hold's node checked in one round trip; a
// node deleted behind our back is reported not owned; a cut link, unanswered.
TEST_F(ZkLockOpsOneNode, KeeperChecksEveryDueHoldInOneRoundTrip) {
  TcpProxy proxy(server_->client_port(0));
  auto session = session_on("127.0.0.1:" + std::to_string(proxy.port()), milliseconds(500));
  auto admin = session_on(hosts());
  dlock::ZkKeeper keeper(session_of(*session));
  constexpr int holds = 20;
  std::vector<std::shared_ptr<ZkLockOps>> ops;
  std::vector<std::unique_ptr<LockWait>> waits;
  std::vector<dlock::Hold> due;
  for (int i = 0; i < holds; ++i) {
    ops.push_back(ops_on(*session, "kept-" + std::to_string(i)));
    waits.push_back(ops.back()->begin("k:1", -1));
    const LockWait::Try granted = waits.back()->attempt(0, false);
    ASSERT_TRUE(granted.granted);
    due.push_back(hold_of("k:1", granted));
  }
  std::vector<dlock::HoldKeeper::Report> reports;
  const auto sink = [&](dlock::HoldKeeper::Report report) { reports.push_back(std::move(report)); };

  auto waits_before = session->waits_for_server();
  auto sent_at = std::chrono::steady_clock::now();
  keeper.renew(due, sent_at, sent_at + seconds(5), sink);
  EXPECT_EQ(session->waits_for_server() - waits_before, 1u) << "one round trip for " << holds << " holds";
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].went_through);
  EXPECT_FALSE(reports[0].failure);
  EXPECT_TRUE(reports[0].unanswered.empty());
  ASSERT_EQ(reports[0].answered.size(), due.size());
  for (const auto& renewal : reports[0].answered) EXPECT_TRUE(renewal.still_owned);
  EXPECT_GE(session->last_confirmed_contact(), sent_at);

  ASSERT_EQ(dlock::zk::remove(*admin, due[3].grant.locator), ZOK);
  reports.clear();
  sent_at = std::chrono::steady_clock::now();
  keeper.renew(due, sent_at, sent_at + seconds(5), sink);
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_EQ(reports[0].answered.size(), due.size());
  for (int i = 0; i < holds; ++i) {
    EXPECT_EQ(reports[0].answered[i].still_owned, i != 3) << i;
    EXPECT_EQ(reports[0].answered[i].hold.grant.locator, due[i].grant.locator) << "in the order sent";
  }

  reports.clear();
  proxy.partition();
  sent_at = std::chrono::steady_clock::now();
  keeper.renew(due, sent_at, sent_at + seconds(5), sink);
  proxy.heal();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_FALSE(reports[0].went_through);
  EXPECT_TRUE(reports[0].answered.empty());
  EXPECT_EQ(reports[0].unanswered.size(), due.size());
  ASSERT_TRUE(reports[0].failure);
  EXPECT_NE(reports[0].failure->find("did not answer"), std::string::npos) << *reports[0].failure;

  // Healed, the renewals go through again (and the requests the partition
  // left unanswered are settled by the client before the session closes).
  EXPECT_TRUE(wait_until(
      [&] {
        reports.clear();
        sent_at = std::chrono::steady_clock::now();
        keeper.renew(due, sent_at, sent_at + seconds(5), sink);
        return reports.size() == 1 && reports[0].went_through;
      },
      seconds(20)));
}

// A pending release is settled through the keeper by its own Settle.
TEST_F(ZkLockOpsOneNode, KeeperSettlesAPendingRelease) {
  auto session = session_on(hosts());
  dlock::ZkKeeper keeper(session_of(*session));
  auto ops = ops_on(*session, "settled");
  auto wait = ops->begin("s:1", -1);
  const LockWait::Try granted = wait->attempt(0, false);
  ASSERT_TRUE(granted.granted);
  dlock::PendingRequest request;
  request.caller = "s";
  request.settle = ops->settle_release(grant_of("s:1", granted), "r", 10000);
  const auto deadline = std::chrono::steady_clock::now() + seconds(5);
  EXPECT_EQ(keeper.settle(request, deadline), 1);
  EXPECT_EQ(keeper.settle(request, deadline), 0);
  EXPECT_FALSE(ops->is_locked());
}

}  // namespace
}  // namespace dlock_test
