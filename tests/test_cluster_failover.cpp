// Redis Cluster failover: a master killed while its locks are held and
// waited for, and processes contending on names of every master across a
// failover and a slot migration, judged by the safety checker. One cluster
// (3 masters, 3 replicas) serves the file; the killed master comes back as a
// replica before the test ends.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "cluster_suite.hpp"
#include "contention_run.hpp"
#include "dlock_handles.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_cluster.hpp"
#include "redis_inspect.hpp"
#include "safety_checker.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A replica takes over ~2-3 s after its master dies (cluster-node-timeout 1000):
// calls retry that long within their command timeout.
constexpr int64_t kCommandTimeoutMs = 8000;
const char* const kSyncQuery = "?sync_replicas=1";

// Some sections started before `from_ns` and some after `to_ns`.
bool sections_around(const std::vector<Section>& sections, int64_t from_ns, int64_t to_ns) {
  bool before = false;
  bool after = false;
  for (const Section& section : sections) {
    before = before || section.start_ns < from_ns;
    after = after || section.start_ns > to_ns;
  }
  return before && after;
}

class ClusterFailover : public ClusterSuite {
 protected:
  static ClientHandle open(const std::string& query, int64_t watchdog_timeout_ms) {
    dlock_client_options options = options_with_watchdog(watchdog_timeout_ms);
    options.command_timeout_ms = kCommandTimeoutMs;
    return open_client(cluster().url(query), options);
  }
};

// With sync_replicas=1 each grant reached the replica before it counted, so
// the promoted replica has the holds: no second holder, the holder's
// releases work on it and wake the waiter, and tokens keep rising.
TEST_F(ClusterFailover, HoldsOnAKilledMasterSurviveAndItsWaiterIsWokenOnTheNewMaster) {
  // The watchdog lease is long, so a waiter that missed the release message
  // would sleep far longer than the wake-up allowed below.
  const ClientHandle holder = open(kSyncQuery, 15000);
  const ClientHandle rival = open(kSyncQuery, 15000);
  const ClientHandle waiting = open(kSyncQuery, 15000);
  const ClientHandle bystander = open("", 15000);
  const int old_master = cluster().master_ports()[0];
  const std::vector<std::string> names = cluster().names_on_each_master(3, "survivor-")[0];
  const std::string& waited = names[0];
  const std::string& contended = names[1];
  const std::string& during = names[2];

  const LockHandle held_waited = new_lock(holder.get(), waited);
  const LockHandle held_contended = new_lock(holder.get(), contended);
  LostRecorder lost;
  lost.attach(held_waited.get());
  lost.attach(held_contended.get());
  uint64_t waited_token = 0;
  uint64_t contended_token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(held_waited.get(), 0, -1, &waited_token), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_acquire(held_contended.get(), 0, -1, &contended_token), DLOCK_OK));
  const LockHandle wanted = new_lock(waiting.get(), waited);
  auto waiter = acquire_in_background(wanted.get(), kWaiterOwner, 60000);
  ASSERT_TRUE(
      wait_until([&] { return shard_subscribers(cluster().node(old_master), release_channel(waited)) == 1; },
                 milliseconds(5000)));

  const int expected_successor = cluster().replica_of(old_master);
  cluster().kill_master(old_master);
  // A call during the failover (no replica sync asked) is served by the
  // promoted replica, within its command timeout.
  const LockHandle during_lock = new_lock(bystander.get(), during);
  const int64_t called_ns = monotonic_ns();
  const int during_status = dlock_lock_acquire(during_lock.get(), 0, 5000, nullptr);
  const int64_t call_ms = ms_between(called_ns, monotonic_ns());
  RecordProperty("call_during_failover_ms", std::to_string(call_ms));
  EXPECT_TRUE(status_is(during_status, DLOCK_OK)) << "after " << call_ms << " ms";
  EXPECT_LE(call_ms, kCommandTimeoutMs + 500);
  const int new_master = cluster().await_failover(old_master, seconds(15));
  RecordProperty("failover_ms", std::to_string(ms_between(called_ns, monotonic_ns())));
  EXPECT_EQ(new_master, expected_successor);
  if (during_status == DLOCK_OK) EXPECT_TRUE(status_is(dlock_lock_release(during_lock.get()), DLOCK_OK));

  EXPECT_TRUE(key_exists(cluster().node(new_master), waited)) << "the replica had the grant";
  EXPECT_TRUE(key_exists(cluster().node(new_master), contended));
  const LockHandle rival_lock = new_lock(rival.get(), contended);
  EXPECT_TRUE(status_is(dlock_lock_acquire(rival_lock.get(), 0, -1, nullptr), DLOCK_NOT_ACQUIRED))
      << "no second holder after the failover";
  // The new master's grants need a replica to reach (sync_replicas=1).
  cluster().restart_node(old_master);
  EXPECT_EQ(lost.calls(), 0);
  EXPECT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while held";

  EXPECT_TRUE(status_is(dlock_lock_release(held_contended.get()), DLOCK_OK));
  uint64_t rival_token = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire(rival_lock.get(), 0, -1, &rival_token), DLOCK_OK));
  EXPECT_GT(rival_token, contended_token) << "tokens keep rising across the failover";
  EXPECT_TRUE(status_is(dlock_lock_release(rival_lock.get()), DLOCK_OK));

  const int64_t released_ns = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_lock_release(held_waited.get()), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(10000)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_GT(outcome.token, waited_token);
  RecordProperty("wake_after_release_ms", std::to_string(ms_between(released_ns, outcome.returned_ns)));
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), 3000) << "woken, not timed out";
}

// The fair lock across a failover: its holder and the queue of its waiter
// (both synced to the replica) survive on the promoted replica, and the
// release there hands the lock to the queued waiter.
TEST_F(ClusterFailover, AFairLocksHolderAndQueueSurviveAFailover) {
  const ClientHandle holder = open(kSyncQuery, 15000);
  const ClientHandle waiting = open(kSyncQuery, 15000);
  const int old_master = cluster().master_ports()[0];
  const std::string name = cluster().names_on_each_master(1, "fair-survivor-")[0][0];
  const LockHandle held = new_fair_lock(holder.get(), name);
  const LockHandle wanted = new_fair_lock(waiting.get(), name);
  uint64_t held_token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, &held_token), DLOCK_OK));
  auto waiter = acquire_in_background(wanted.get(), kWaiterOwner, 60000);
  std::this_thread::sleep_for(milliseconds(300));  // queued, and the queue synced

  cluster().kill_master(old_master);
  const int new_master = cluster().await_failover(old_master, seconds(15));
  EXPECT_TRUE(key_exists(cluster().node(new_master), name)) << "the replica had the grant";
  cluster().restart_node(old_master);  // grants need a replica to reach (sync_replicas=1)
  EXPECT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "granted while held";

  const int64_t released_ns = monotonic_ns();
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
  ASSERT_EQ(waiter.wait_for(milliseconds(10000)), std::future_status::ready);
  const AcquireOutcome outcome = waiter.get();
  EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
  EXPECT_GT(outcome.token, held_token);
  EXPECT_LT(ms_between(released_ns, outcome.returned_ns), 3000) << "handed over, not timed out";
}

// Without replica sync, a failover to a replica that missed the grant lets
// another client take the lock: the holder hears of its loss from its next
// renewal (by its watchdog lease at the latest), and its release says so.
TEST_F(ClusterFailover, WithoutSyncAGrantTheReplicaMissedIsReportedLost) {
  const ClientHandle holder = open("", 3000);
  const ClientHandle rival = open("", 3000);
  const int master_port = cluster().master_ports()[1];
  const std::string name = cluster().names_on_each_master(1, "missed-")[1][0];
  const LockHandle held = new_lock(holder.get(), name);
  const LockHandle taken = new_lock(rival.get(), name);
  LostRecorder lost;
  lost.attach(held.get());
  // The holder's pooled connection stays authenticated below.
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));

  // The replica stops receiving the stream: the master asks for a password
  // its replication link cannot give.
  RedisServer& master = cluster().node(master_port);
  RedisServer& replica = cluster().node(cluster().replica_of(master_port));
  master.command({"CONFIG", "SET", "requirepass", "missed-pass"});
  replica.command({"CLIENT", "KILL", "TYPE", "master"});
  ASSERT_TRUE(wait_until(
      [&] {
        return replica.command({"INFO", "replication"}).str.find("master_link_status:down") !=
               std::string::npos;
      },
      milliseconds(3000)));
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));

  cluster().kill_master(master_port);
  EXPECT_EQ(cluster().await_failover(master_port, seconds(15)), replica.port());
  const int64_t failed_over_ns = monotonic_ns();
  EXPECT_FALSE(key_exists(replica, name)) << "the promoted replica never had the grant";
  ASSERT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(5000)))
      << "the holder is told within its watchdog lease";
  RecordProperty("lost_after_failover_ms", std::to_string(ms_between(failed_over_ns, lost.last_call_ns())));
  EXPECT_TRUE(status_is(dlock_lock_acquire(taken.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_E_LOST));
  EXPECT_TRUE(status_is(dlock_lock_release(taken.get()), DLOCK_OK));
  cluster().restart_node(master_port);  // its config has no password: it rejoins as the replica
}

// A master killed and restarted at once, before its replica could take over,
// comes back empty (no persistence): the holder hears its hold is lost, and
// the next grant's fencing token is still above the lost one.
TEST_F(ClusterFailover, AMasterRestartedEmptyReportsTheLossAndTokensKeepRising) {
  const ClientHandle holder = open("", 1000);
  const ClientHandle rival = open("", 1000);
  const int master_port = cluster().master_ports()[2];
  const std::string name = cluster().names_on_each_master(1, "restarted-")[2][0];
  const LockHandle held = new_lock(holder.get(), name);
  const LockHandle taken = new_lock(rival.get(), name);
  LostRecorder lost;
  lost.attach(held.get());
  uint64_t lost_token = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, &lost_token), DLOCK_OK));

  RedisServer& master = cluster().node(master_port);
  master.kill9();
  master.restart();  // well within cluster-node-timeout: no failover
  ASSERT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(5000)))
      << "the renewal finds the hold gone";
  EXPECT_EQ(cluster().master_for_key(name), master_port) << "no failover";
  uint64_t token = 0;
  EXPECT_TRUE(status_is(dlock_lock_acquire(taken.get(), 0, -1, &token), DLOCK_OK));
  EXPECT_GT(token, lost_token) << "the counter was lost, the token still rises";
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_E_LOST));
  EXPECT_TRUE(status_is(dlock_lock_release(taken.get()), DLOCK_OK));
  cluster().await_healthy(seconds(30));
}

// Worker processes contend on one name per master while one master is
// killed and another's slot moves: the sections never overlap and tokens
// rise in grant order on every name.
TEST_F(ClusterFailover, ProcessesStaySafeAcrossAFailoverAndASlotMigration) {
  std::vector<std::string> names;
  for (const auto& on_master : cluster().names_on_each_master(1, "checked-")) names.push_back(on_master[0]);
  const std::vector<int> masters = cluster().master_ports();
  std::vector<std::unique_ptr<ContentionRun>> runs;
  ContentionSetup setup;
  setup.url =
      cluster().url(std::string(kSyncQuery) + "&command_timeout_ms=" + std::to_string(kCommandTimeoutMs));
  setup.processes = 2;
  setup.threads = 2;
  setup.cycles = 150;
  setup.watchdog_timeout_ms = 3000;
  setup.min_sleep_us = 2000;
  setup.max_sleep_us = 6000;
  for (const std::string& name : names) {
    setup.name = name;
    runs.push_back(std::make_unique<ContentionRun>(setup));
  }
  std::this_thread::sleep_for(milliseconds(1000));

  const int64_t migration_ns = monotonic_ns();
  cluster().migrate_slot(cluster().slot_of(names[1]), masters[2]);
  const int64_t killed_ns = monotonic_ns();
  cluster().kill_master(masters[0]);
  cluster().await_failover(masters[0], seconds(15));
  const int64_t failed_over_ns = monotonic_ns();
  cluster().restart_node(masters[0]);

  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string failures = runs[i]->wait(milliseconds(60000));
    EXPECT_EQ(failures, "") << names[i];
    const std::vector<Section> sections = runs[i]->sections();
    EXPECT_EQ(sections.size(), static_cast<std::size_t>(setup.processes * setup.threads * setup.cycles))
        << names[i];
    const SafetyReport report = check_sections(sections);
    EXPECT_TRUE(report.clean()) << names[i] << ": " << report.summary();
    EXPECT_EQ(runs[i]->store().stale_rejections, 0) << names[i];
  }
  // The faults struck while the names were contended.
  EXPECT_TRUE(sections_around(runs[0]->sections(), killed_ns, failed_over_ns)) << "across the failover";
  EXPECT_TRUE(sections_around(runs[1]->sections(), migration_ns, migration_ns)) << "across the migration";
}

}  // namespace
}  // namespace dlock_test
