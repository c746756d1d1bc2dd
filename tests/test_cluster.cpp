// Redis Cluster: the client finds the cluster from a seed, each lock lives on
// the master owning its slot, waiters listen with sharded pub/sub on that
// node, the watchdog renews in one round trip per master, and a slot that
// moves (MOVED) or is moving (ASK) keeps its holds and waiters. One cluster
// (3 masters, 3 replicas) serves the whole program; every test leaves each slot
// where it found it. The other primitives are in test_cluster_primitives.cpp
// (same program, same cluster), failovers in test_cluster_failover.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "cluster_suite.hpp"
#include "dlock_handles.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_cluster.hpp"
#include "redis_inspect.hpp"
#include "redis_server.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A release wakes a waiter through its message in far less than this; a
// waiter that missed it sleeps until the holder's lease (kLongLeaseMs) ends.
constexpr int64_t kWakeUpMs = 1500;
constexpr int64_t kLongLeaseMs = 20000;
constexpr int64_t kWaiterOwner = 7;

class Cluster : public ClusterSuite {
 protected:
  // Sharded subscribers of the lock's channel on the master owning its slot.
  static long long waiters_listening(const std::string& name) {
    const std::string channel = release_channel(name);
    return shard_subscribers(cluster().node(cluster().master_for_key(channel)), channel);
  }
  static bool await_waiter_listening(const std::string& name) {
    return wait_until([&] { return waiters_listening(name) == 1; }, milliseconds(5000));
  }
  // The only field of the lock's hash on the master owning it ("" when none or several).
  static std::string holder_field(const std::string& name) {
    const auto fields = hash_fields(cluster().node(cluster().master_for_key(name)), name);
    return fields.size() == 1 ? fields.begin()->first : "";
  }
};

TEST_F(Cluster, OneSeedFindsTheClusterAndEachLockLivesOnTheMasterOwningItsSlot) {
  const ClientHandle client = open_client(cluster().seed_url_single());
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(3, "routed-");
  std::map<std::string, LockHandle> locks;
  std::map<std::string, uint64_t> tokens;
  for (const auto& on_master : names) {
    for (const std::string& name : on_master) {
      locks[name] = new_lock(client.get(), name);
      ASSERT_TRUE(status_is(dlock_lock_acquire(locks[name].get(), 0, -1, &tokens[name]), DLOCK_OK)) << name;
    }
  }
  for (std::size_t i = 0; i < masters.size(); ++i) {
    for (const std::string& name : names[i]) {
      EXPECT_TRUE(key_exists(cluster().node(masters[i]), name))
          << name << " on its slot's master " << masters[i];
      // What `dlock status` shows, read through the client.
      dlock_lock_info info;
      dlock_lock_info_init(&info);
      dlock_lock_holders* holders = nullptr;
      ASSERT_TRUE(status_is(dlock_lock_inspect(locks[name].get(), &info, &holders), DLOCK_OK)) << name;
      EXPECT_GT(info.ttl_ms, 0) << name;
      EXPECT_EQ(info.has_last_token, 1) << name;
      EXPECT_EQ(info.last_token, tokens[name]) << name;
      ASSERT_EQ(info.holder_count, 1u) << name;
      const char* id = nullptr;
      ASSERT_TRUE(status_is(dlock_lock_holders_get(holders, 0, &id, nullptr, nullptr), DLOCK_OK));
      EXPECT_EQ(std::string(id), holder_field(name)) << name;
      dlock_lock_holders_free(holders);
    }
  }
  for (std::size_t i = 0; i < masters.size(); ++i) {
    for (const std::string& name : names[i]) {
      EXPECT_TRUE(status_is(dlock_lock_release(locks[name].get()), DLOCK_OK)) << name;
      EXPECT_FALSE(key_exists(cluster().node(masters[i]), name)) << name;
    }
  }
}

TEST_F(Cluster, AClosedPortAndAReplicaAsSeedsStillLeadToTheMasters) {
  const std::vector<int> masters = cluster().master_ports();
  const std::string url = "redis://127.0.0.1:" + std::to_string(pick_free_port()) +
                          ",127.0.0.1:" + std::to_string(cluster().replica_of(masters[0]));
  const ClientHandle client = open_client(url);
  const auto names = cluster().names_on_each_master(1, "seeded-");
  for (std::size_t i = 0; i < masters.size(); ++i) {
    const LockHandle lock = new_lock(client.get(), names[i][0]);
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK)) << names[i][0];
    EXPECT_TRUE(key_exists(cluster().node(masters[i]), names[i][0]))
        << "written on the master, not the replica";
    EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK)) << names[i][0];
  }
}

TEST_F(Cluster, WaitersOnEachMasterListenThereWithShardedPubSubAndAReleaseWakesThem) {
  const ClientHandle holder = open();
  const ClientHandle waiting = open();
  std::vector<std::string> names;
  for (const auto& on_master : cluster().names_on_each_master(3, "handoff-"))
    names.insert(names.end(), on_master.begin(), on_master.end());
  std::vector<LockHandle> held;
  std::vector<LockHandle> wanted;
  std::vector<std::future<AcquireOutcome>> waiters;
  for (const std::string& name : names) {
    held.push_back(new_lock(holder.get(), name));
    wanted.push_back(new_lock(waiting.get(), name));
    ASSERT_TRUE(status_is(dlock_lock_acquire(held.back().get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
    waiters.push_back(acquire_in_background(wanted.back().get(), kWaiterOwner, kLongLeaseMs));
  }
  for (const std::string& name : names) {
    EXPECT_TRUE(await_waiter_listening(name)) << "SSUBSCRIBE on the master owning " << name;
    const std::string channel = release_channel(name);
    EXPECT_EQ(classic_subscribers(cluster().node(cluster().master_for_key(channel)), channel), 0)
        << "a classic SUBSCRIBE would not hear Redisson's SPUBLISH";
  }
  for (const int master : cluster().master_ports()) {
    EXPECT_EQ(shard_subscriber_connections(cluster().node(master)), 1)
        << "one subscriber connection per node for the client's three waiters there";
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int64_t released_ns = monotonic_ns();
    ASSERT_TRUE(status_is(dlock_lock_release(held[i].get()), DLOCK_OK));
    ASSERT_EQ(waiters[i].wait_for(milliseconds(kLongLeaseMs / 2)), std::future_status::ready) << names[i];
    const AcquireOutcome outcome = waiters[i].get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_OK)) << names[i];
    EXPECT_LT(ms_between(released_ns, outcome.returned_ns), kWakeUpMs)
        << "woken, not timed out: " << names[i];
  }
}

// Redisson's unlock on a cluster: DEL, then SPUBLISH on the node owning the slot.
TEST_F(Cluster, ARawSpublishOnTheOwningNodeWakesAWaiter) {
  const std::string name = cluster().names_on_each_master(1, "spublished-")[1][0];
  RedisServer& owner = cluster().node(cluster().master_for_key(name));
  forge_foreign_holder(owner, name, "redisson-client:1", kLongLeaseMs);
  const ClientHandle waiting = open();
  const LockHandle wanted = new_lock(waiting.get(), name);
  auto waiter = acquire_in_background(wanted.get(), kWaiterOwner, kLongLeaseMs);
  ASSERT_TRUE(await_waiter_listening(name));

  const int64_t released_ns = monotonic_ns();
  ASSERT_EQ(owner.command({"DEL", name}).integer, 1);
  EXPECT_EQ(owner.command({"SPUBLISH", release_channel(name), "0"}).integer, 1);
  ASSERT_EQ(waiter.wait_for(milliseconds(kLongLeaseMs / 2)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), kWakeUpMs);
}

TEST_F(Cluster, TheWatchdogRenewsEachMastersLocksInOneRoundTripPerPeriod) {
  constexpr int64_t kWatchdogMs = 600;
  constexpr int64_t kPeriodMs = kWatchdogMs / 3;
  const ClientHandle client = open(kWatchdogMs);
  std::vector<std::string> names;
  for (const auto& on_master : cluster().names_on_each_master(100, "renewed-"))
    names.insert(names.end(), on_master.begin(), on_master.end());
  std::vector<LockHandle> locks;
  for (const std::string& name : names) {
    locks.push_back(new_lock(client.get(), name));
    ASSERT_TRUE(status_is(dlock_lock_acquire(locks.back().get(), 0, -1, nullptr), DLOCK_OK)) << name;
  }
  std::map<std::string, std::string> fields;
  for (const std::string& name : names) fields[name] = holder_field(name);

  const dlock_client_stats before = client_stats(client.get());
  const int64_t started_ns = monotonic_ns();
  std::this_thread::sleep_for(milliseconds(10 * kPeriodMs));
  const dlock_client_stats after = client_stats(client.get());
  const int64_t periods = ms_between(started_ns, monotonic_ns()) / kPeriodMs;

  const auto round_trips = static_cast<int64_t>(after.renewal_round_trips - before.renewal_round_trips);
  const auto renewals = static_cast<int64_t>(after.renewals - before.renewals);
  RecordProperty("periods", std::to_string(periods));
  RecordProperty("renewal_round_trips", std::to_string(round_trips));
  EXPECT_GE(renewals, static_cast<int64_t>(names.size()) * (periods - 2)) << "every hold renewed each period";
  EXPECT_GE(round_trips, 3 * (periods - 2)) << renewals << " renewals";
  EXPECT_LE(round_trips, 3 * (periods + 2))
      << "one round trip per master per period; " << renewals << " renewals";
  EXPECT_EQ(after.locks_lost, 0u);
  for (const std::string& name : names) {
    EXPECT_FALSE(fields[name].empty()) << name;
    EXPECT_EQ(holder_field(name), fields[name]) << "still held: " << name;
  }
  for (std::size_t i = 0; i < locks.size(); ++i)
    EXPECT_TRUE(status_is(dlock_lock_release(locks[i].get()), DLOCK_OK)) << names[i];
}

// Each master's holds are renewed in their own batch: a master that stops
// answering for longer than a lease costs its own holds, never those on the
// others, which stay held on their servers and are not reported lost.
TEST_F(Cluster, AStalledMasterCostsOnlyItsOwnHolds) {
  constexpr int64_t kWatchdogMs = 600;
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(2, "stalled-");
  for (std::size_t stalled = 0; stalled < masters.size(); ++stalled) {
    const ClientHandle client = open(kWatchdogMs);
    std::vector<LockHandle> locks;
    std::vector<std::unique_ptr<LostRecorder>> lost;
    std::vector<std::string> fields;
    std::vector<int> owners;
    for (std::size_t master = 0; master < names.size(); ++master) {
      if (master == stalled) continue;
      for (const std::string& name : names[master]) {
        owners.push_back(masters[master]);
        locks.push_back(new_lock(client.get(), name));
        lost.push_back(std::make_unique<LostRecorder>());
        lost.back()->attach(locks.back().get());
        ASSERT_TRUE(status_is(dlock_lock_acquire(locks.back().get(), 0, -1, nullptr), DLOCK_OK)) << name;
        fields.push_back(holder_field(name));
      }
    }
    const LockHandle on_stalled = new_lock(client.get(), names[stalled][0]);
    ASSERT_TRUE(status_is(dlock_lock_acquire(on_stalled.get(), 0, -1, nullptr), DLOCK_OK));
    // Shorter than cluster-node-timeout: no failover, only silence.
    cluster().node(masters[stalled]).pause();
    std::this_thread::sleep_for(milliseconds(800));
    cluster().node(masters[stalled]).resume();

    std::this_thread::sleep_for(milliseconds(2 * kWatchdogMs));
    for (std::size_t i = 0; i < locks.size(); ++i) {
      const std::string name = dlock_lock_name(locks[i].get());
      EXPECT_EQ(lost[i]->calls(), 0) << name << " on master " << owners[i] << " reported lost while master "
                                     << masters[stalled] << " stalled";
      EXPECT_EQ(holder_field(name), fields[i]) << name << " still held";
      EXPECT_TRUE(status_is(dlock_lock_release(locks[i].get()), DLOCK_OK)) << name;
    }
    dlock_lock_release(on_stalled.get());  // OK or DLOCK_E_LOST: the stall outlasted its lease
  }
}

// A renewal that timed out on a stalled master makes the client ask for the
// slot map again; an acquire on a healthy master meanwhile is served at once,
// not after the stalled master's command timeout.
TEST_F(Cluster, AnAcquireOnAHealthyMasterDoesNotWaitForAStalledOne) {
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(1, "bystander-");
  const ClientHandle client = open(600);
  const LockHandle on_stalled = new_lock(client.get(), names[0][0]);
  const LockHandle on_healthy = new_lock(client.get(), names[1][0]);
  ASSERT_TRUE(status_is(dlock_lock_acquire(on_stalled.get(), 0, -1, nullptr), DLOCK_OK));
  cluster().node(masters[0]).pause();
  std::this_thread::sleep_for(milliseconds(700));  // past the renewal's deadline
  const int64_t called_ns = monotonic_ns();
  const int status = dlock_lock_acquire(on_healthy.get(), 0, -1, nullptr);
  const int64_t call_ms = ms_between(called_ns, monotonic_ns());
  cluster().node(masters[0]).resume();
  EXPECT_TRUE(status_is(status, DLOCK_OK));
  EXPECT_LT(call_ms, 300) << "an acquire on master " << masters[1] << " waited for the stalled "
                          << masters[0];
  if (status == DLOCK_OK) EXPECT_TRUE(status_is(dlock_lock_release(on_healthy.get()), DLOCK_OK));
  dlock_lock_release(on_stalled.get());  // OK or DLOCK_E_LOST: the stall outlasted its lease
}

// The waiters of one client share a subscriber connection per node: a
// release on a healthy master wakes its waiter while another master of the
// same client's waiters stalls.
TEST_F(Cluster, AStalledMasterDoesNotDelayWakeUpsFromTheOthers) {
  const std::vector<int> masters = cluster().master_ports();
  const auto names = cluster().names_on_each_master(1, "unstalled-");
  const std::string& on_stalled = names[0][0];
  const std::string& on_healthy = names[1][0];
  const ClientHandle holder = open();
  const ClientHandle waiting = open();
  const LockHandle held_stalled = new_lock(holder.get(), on_stalled);
  const LockHandle held_healthy = new_lock(holder.get(), on_healthy);
  const LockHandle wanted_stalled = new_lock(waiting.get(), on_stalled);
  const LockHandle wanted_healthy = new_lock(waiting.get(), on_healthy);
  ASSERT_TRUE(status_is(dlock_lock_acquire(held_stalled.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(held_healthy.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
  auto waiter_stalled = acquire_in_background(wanted_stalled.get(), kWaiterOwner, kLongLeaseMs);
  auto waiter_healthy = acquire_in_background(wanted_healthy.get(), kWaiterOwner + 1, kLongLeaseMs);
  ASSERT_TRUE(await_waiter_listening(on_stalled));
  ASSERT_TRUE(await_waiter_listening(on_healthy));

  cluster().node(masters[0]).pause();
  const int64_t released_ns = monotonic_ns();
  const int released = dlock_lock_release(held_healthy.get());
  const bool woken = waiter_healthy.wait_for(milliseconds(600)) == std::future_status::ready;
  cluster().node(masters[0]).resume();
  ASSERT_TRUE(status_is(released, DLOCK_OK));
  ASSERT_TRUE(woken) << "the stalled master held up a wake-up from another";
  EXPECT_LT(ms_between(released_ns, waiter_healthy.get().returned_ns), 300);

  ASSERT_TRUE(status_is(dlock_lock_release(held_stalled.get()), DLOCK_OK));
  ASSERT_EQ(waiter_stalled.wait_for(milliseconds(kLongLeaseMs / 2)), std::future_status::ready);
  EXPECT_TRUE(status_is(waiter_stalled.get().status, DLOCK_OK));
}

// MOVED: the slot of a held lock, and of a lock a waiter waits for, moves to
// another master. The hold is renewed there, released there, and the waiter
// (its sharded subscription ended by the old owner) is woken there.
TEST_F(Cluster, AHoldAndAWaiterFollowTheirSlotToItsNewMaster) {
  const std::string renewed = "renewed{moved}";
  const std::string waited = "waited{moved}";
  const int slot = cluster().slot_of("moved");
  const int source = cluster().master_for_slot(slot);
  const int target = cluster().another_master(source);
  const ClientHandle holder = open(600);
  const ClientHandle blocker = open();
  const ClientHandle waiting = open();
  const LockHandle held = new_lock(holder.get(), renewed);
  const LockHandle blocking = new_lock(blocker.get(), waited);
  const LockHandle wanted = new_lock(waiting.get(), waited);
  LostRecorder lost;
  lost.attach(held.get());
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(blocking.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
  const std::string field = holder_field(renewed);
  auto waiter = acquire_in_background(wanted.get(), kWaiterOwner, kLongLeaseMs);
  ASSERT_TRUE(await_waiter_listening(waited));

  cluster().migrate_slot(slot, target);
  EXPECT_TRUE(
      wait_until([&] { return shard_subscribers(cluster().node(target), release_channel(waited)) == 1; },
                 milliseconds(5000)))
      << "the waiter subscribes again on the new owner";
  std::this_thread::sleep_for(milliseconds(1000));  // five renewal periods on the new owner
  EXPECT_EQ(lost.calls(), 0);
  EXPECT_EQ(hash_fields(cluster().node(target), renewed).count(field), 1u) << "still held on the new owner";
  const long long remaining = pttl(cluster().node(target), renewed);
  EXPECT_GT(remaining, 0);
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(cluster().node(target), renewed));

  EXPECT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while held";
  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release(blocking.get()), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(kLongLeaseMs / 2)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), kWakeUpMs) << "woken, not timed out";

  cluster().migrate_slot(slot, source);
}

// A slot given to its new owner as redis-cli reshard does: the source and
// the target know at once, the third master only by gossip a moment later,
// so a client asking it for the map then is told the old owner. The
// waiter's new subscription, refused with MOVED by the old owner, is made
// again on the new one, and the release there wakes it.
TEST_F(Cluster, AWaiterFollowsItsSlotWhileAnotherMasterStillNamesTheOldOwner) {
  // Neither the source nor the target is the first master of the map.
  const std::vector<int> masters = cluster().master_ports();
  const std::string tag = cluster().names_on_each_master(1, "gossip-")[1][0];
  const std::string name = "waited{" + tag + "}";
  const int slot = cluster().slot_of(tag);
  const int source = masters[1];
  const int target = masters[2];
  const ClientHandle blocker = open();
  const ClientHandle waiting = open();
  const LockHandle blocking = new_lock(blocker.get(), name);
  const LockHandle wanted = new_lock(waiting.get(), name);
  ASSERT_TRUE(status_is(dlock_lock_acquire(blocking.get(), 0, kLongLeaseMs, nullptr), DLOCK_OK));
  auto waiter = acquire_in_background(wanted.get(), kWaiterOwner, kLongLeaseMs);
  ASSERT_TRUE(await_waiter_listening(name));

  const SlotMigration migration = cluster().begin_migration(slot, target);
  cluster().move_keys(migration);
  const std::vector<std::string> give{"CLUSTER", "SETSLOT", std::to_string(slot), "NODE",
                                      cluster().node_id(target)};
  ASSERT_FALSE(cluster().node(target).command(give).is_error());
  ASSERT_FALSE(cluster().node(source).command(give).is_error());
  std::this_thread::sleep_for(milliseconds(300));
  cluster().finish_migration(migration);
  EXPECT_TRUE(
      wait_until([&] { return shard_subscribers(cluster().node(target), release_channel(name)) == 1; },
                 milliseconds(3000)))
      << "the waiter subscribes again on the new owner";

  const int64_t released_ns = monotonic_ns();
  ASSERT_TRUE(status_is(dlock_lock_release(blocking.get()), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(kLongLeaseMs / 2)), std::future_status::ready);
  EXPECT_TRUE(status_is(waiter.get().status, DLOCK_OK));
  EXPECT_LT(ms_between(released_ns, monotonic_ns()), kWakeUpMs) << "woken, not timed out";

  cluster().migrate_slot(slot, source);
}

// A slot half moved (MIGRATING on its master, IMPORTING on the target):
// single-key reads follow ASK to the importing master once the key moved.
// A lock script's keys are never all on one side (latch, counter and waiting
// keys come and go), so both masters answer it TRYAGAIN until the slot is
// given to the target: an acquire and a release made meanwhile retry within
// their command timeout and complete there once the migration finishes.
TEST_F(Cluster, ALockOfASlotBeingMovedIsReadThroughAskAndTakenOnceTheSlotMoved) {
  const std::string held = "held{asked}";
  const std::string fresh = "fresh{asked}";
  const int slot = cluster().slot_of("asked");
  const int source = cluster().master_for_slot(slot);
  const int target = cluster().another_master(source);
  dlock_client_options options = default_options();
  options.command_timeout_ms = 8000;
  const ClientHandle client = open_client(cluster().url(), options);
  const LockHandle held_lock = new_lock(client.get(), held);
  const LockHandle fresh_lock = new_lock(client.get(), fresh);
  ASSERT_TRUE(status_is(dlock_lock_acquire_owner(held_lock.get(), 1, 0, -1, nullptr, nullptr), DLOCK_OK));

  const SlotMigration migration = cluster().begin_migration(slot, target);
  cluster().move_keys(migration);
  RedisServer& importing = cluster().node(target);
  importing.command({"ASKING"});  // the importing master answers for the slot only after it
  ASSERT_EQ(importing.command({"EXISTS", held}).integer, 1);
  int locked = 0;
  EXPECT_TRUE(status_is(dlock_lock_is_locked(held_lock.get(), &locked), DLOCK_OK));
  EXPECT_EQ(locked, 1) << "EXISTS followed ASK";
  int64_t ttl_ms = 0;
  EXPECT_TRUE(status_is(dlock_lock_ttl(held_lock.get(), &ttl_ms), DLOCK_OK));
  EXPECT_GT(ttl_ms, 0) << "PTTL followed ASK";

  auto release = std::async(std::launch::async, [&] { return dlock_lock_release_owner(held_lock.get(), 1); });
  auto acquire = acquire_in_background(fresh_lock.get(), 2, 0);
  std::this_thread::sleep_for(milliseconds(300));
  cluster().finish_migration(migration);
  ASSERT_EQ(release.wait_for(milliseconds(8000)), std::future_status::ready);
  EXPECT_EQ(release.get(), DLOCK_OK) << "released once the slot moved";
  EXPECT_FALSE(key_exists(cluster().node(target), held));
  ASSERT_EQ(acquire.wait_for(milliseconds(8000)), std::future_status::ready);
  const AcquireOutcome outcome = acquire.get();
  EXPECT_EQ(outcome.status, DLOCK_OK) << "acquired once the slot moved";
  EXPECT_EQ(outcome.release_status, DLOCK_OK);

  cluster().migrate_slot(slot, source);
}

TEST(ClusterUrl, AnEmptySeedIsInvalidAndUnreachableSeedsFailFast) {
  dlock_client* client = nullptr;
  EXPECT_TRUE(invalid_naming(dlock_client_open("redis://127.0.0.1:1,", nullptr, &client), "url"));
  EXPECT_EQ(client, nullptr);

  const std::string closed = "redis://127.0.0.1:" + std::to_string(pick_free_port()) +
                             ",127.0.0.1:" + std::to_string(pick_free_port());
  const int64_t started_ns = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_client_open(closed.c_str(), nullptr, &client), DLOCK_E_CONNECTION));
  EXPECT_LT(ms_between(started_ns, monotonic_ns()), 3000) << "a refused connection is not waited out";
  EXPECT_EQ(client, nullptr);
}

}  // namespace
}  // namespace dlock_test
