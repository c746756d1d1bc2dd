// Redis Cluster: a slot moved (MOVED) or being moved (ASK, TRYAGAIN) with
// locks held and waited for. Each test gives the slot back to its master.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
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
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class ClusterMigration : public ClusterSuite {};

// MOVED: the slot of a held lock, and of a lock a waiter waits for, moves to
// another master. The hold is renewed there, released there, and the waiter
// (its sharded subscription ended by the old owner) is woken there.
TEST_F(ClusterMigration, AHoldAndAWaiterFollowTheirSlotToItsNewMaster) {
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

// MOVED errors a server has answered so far (INFO errorstats).
long long moved_replies(RedisServer& server) {
  const std::string stats = server.command({"INFO", "errorstats"}).str;
  const std::string prefix = "errorstat_MOVED:count=";
  const std::size_t at = stats.find(prefix);
  return at == std::string::npos ? 0 : std::stoll(stats.substr(at + prefix.size()));
}

// Holds whose slot moved join their new owner's renewal batch: after the
// first MOVED the old owner hears no more of them, and a period still costs
// one round trip per master.
TEST_F(ClusterMigration, MovedHoldsAreRenewedInTheirNewOwnersBatch) {
  constexpr int64_t kWatchdogMs = 600;
  constexpr int64_t kPeriodMs = kWatchdogMs / 3;
  const int slot = cluster().slot_of("batched");
  const int source = cluster().master_for_slot(slot);
  const int target = cluster().another_master(source);
  const ClientHandle client = open(kWatchdogMs);
  std::vector<std::string> names;
  for (const auto& on_master : cluster().names_on_each_master(10, "batch-"))
    names.insert(names.end(), on_master.begin(), on_master.end());
  for (int i = 0; i < 30; ++i) names.push_back("moving-" + std::to_string(i) + "{batched}");
  std::vector<LockHandle> locks;
  for (const std::string& name : names) {
    locks.push_back(new_lock(client.get(), name));
    ASSERT_TRUE(status_is(dlock_lock_acquire(locks.back().get(), 0, -1, nullptr), DLOCK_OK)) << name;
  }
  cluster().migrate_slot(slot, target);
  std::this_thread::sleep_for(milliseconds(3 * kPeriodMs));  // the first renewals there were redirected

  const long long moved_before = moved_replies(cluster().node(source));
  const dlock_client_stats before = client_stats(client.get());
  const int64_t started_ns = monotonic_ns();
  std::this_thread::sleep_for(milliseconds(5 * kPeriodMs));
  const dlock_client_stats after = client_stats(client.get());
  const int64_t periods = ms_between(started_ns, monotonic_ns()) / kPeriodMs;
  EXPECT_EQ(moved_replies(cluster().node(source)), moved_before) << "renewals still sent to the old owner";
  const auto round_trips = static_cast<int64_t>(after.renewal_round_trips - before.renewal_round_trips);
  EXPECT_LE(round_trips, 3 * (periods + 2));
  EXPECT_EQ(after.locks_lost, 0u);
  for (std::size_t i = 0; i < locks.size(); ++i) {
    EXPECT_FALSE(holder_field(names[i]).empty()) << names[i] << " still held";
    EXPECT_TRUE(status_is(dlock_lock_release(locks[i].get()), DLOCK_OK)) << names[i];
  }
  cluster().migrate_slot(slot, source);
}

// A slot given to its new owner as redis-cli reshard does: the source and
// the target know at once, the third master only by gossip a moment later,
// so a client asking it for the map then is told the old owner. The
// waiter's new subscription, refused with MOVED by the old owner, is made
// again on the new one, and the release there wakes it.
TEST_F(ClusterMigration, AWaiterFollowsItsSlotWhileAnotherMasterStillNamesTheOldOwner) {
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
TEST_F(ClusterMigration, ALockOfASlotBeingMovedIsReadThroughAskAndTakenOnceTheSlotMoved) {
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

}  // namespace
}  // namespace dlock_test
