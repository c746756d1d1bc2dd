// Redis Cluster: the client finds the cluster from a seed (a closed port or
// a replica will do), each lock lives on the master owning its slot, waiters
// listen with sharded pub/sub on that node, and the watchdog renews in one
// round trip per master. The test program's files share one cluster (3
// masters, 3 replicas; see cluster_suite.hpp): test_cluster_migration.cpp
// (MOVED, ASK), test_cluster_stalls.cpp (a master that stops answering) and
// test_cluster_primitives.cpp; failovers are in test_cluster_failover.cpp.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <future>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "cluster_suite.hpp"
#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "redis_cluster.hpp"
#include "redis_inspect.hpp"
#include "redis_server.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class Cluster : public ClusterSuite {};

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

// Runs in a forked child: 0, or the number of the first check that failed.
int child_checks(dlock_client* client, dlock_lock* parents_lock, const std::vector<std::string>& names) {
  if (dlock_lock_acquire(parents_lock, 0, -1, nullptr) != DLOCK_NOT_ACQUIRED) return 1;
  int check = 2;
  for (const std::string& name : names) {
    dlock_lock* own = nullptr;
    if (dlock_lock_new(client, name.c_str(), &own) != DLOCK_OK) return check;
    if (dlock_lock_acquire(own, 0, -1, nullptr) != DLOCK_OK) return check + 1;
    if (dlock_lock_release(own) != DLOCK_OK) return check + 2;
    dlock_lock_free(own);
    check += 3;
  }
  dlock_client_close(client);
  return 0;
}

// A cluster client opened before fork() works in the child on connections
// of its own to every master, and leaves the parent's hold alone.
TEST_F(Cluster, AForkedChildUsesTheClusterClientOnItsOwn) {
#ifdef __SANITIZE_THREAD__
  GTEST_SKIP() << "TSan cannot follow threads started in a child of a multithreaded fork";
#endif
  const ClientHandle client = open();
  std::vector<std::string> names;
  for (const auto& on_master : cluster().names_on_each_master(2, "forked-")) names.push_back(on_master[1]);
  const std::string parents = cluster().names_on_each_master(2, "forked-")[0][0];
  const LockHandle lock = new_lock(client.get(), parents);
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  const std::string field = holder_field(parents);

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(child_checks(client.get(), lock.get(), names));
  int status = 0;
  const bool ended =
      wait_until([&] { return waitpid(child, &status, WNOHANG) == child; }, milliseconds(20000));
  if (!ended) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
  }
  ASSERT_TRUE(ended) << "the child hung";
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child check " << WEXITSTATUS(status) << " failed";
  EXPECT_EQ(holder_field(parents), field) << "the child touched the parent's hold";
  for (const std::string& name : names)
    EXPECT_EQ(holder_field(name), "") << name << " left held by the child";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
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
