// Redis Sentinel: the master found through the sentinels, failovers followed
// with locks held and waiters waiting, replica sync, and the window without
// it. One cluster (master, 2 replicas, 3 sentinels) serves the whole file;
// every test leaves it healthy for the next.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "background_acquire.hpp"
#include "dlock_handles.hpp"
#include "log_capture.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "redis_server.hpp"
#include "safety_checker.hpp"
#include "section_log.hpp"
#include "sentinel_cluster.hpp"
#include "status_assertions.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

bool key_exists(RedisServer& server, const std::string& key) {
  return server.command({"EXISTS", key}).integer == 1;
}

class Sentinel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = new SentinelCluster(); }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void TearDown() override { cluster().await_healthy(seconds(30)); }

  static SentinelCluster& cluster() { return *cluster_; }
  // A client through the sentinels; a short watchdog lease keeps renewals frequent.
  static ClientHandle open(const std::string& query = "") {
    return open_client(cluster().url(query), options_with_watchdog(6000));
  }

 private:
  static SentinelCluster* cluster_;
};

SentinelCluster* Sentinel::cluster_ = nullptr;

TEST_F(Sentinel, TheUrlLeadsToTheMaster) {
  const ClientHandle client = open();
  EXPECT_STREQ(dlock_client_backend(client.get()), "redis");
  const LockHandle lock = new_lock(client.get(), "resolved");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_TRUE(key_exists(cluster().master(), "resolved"));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_FALSE(key_exists(cluster().master(), "resolved"));
}

class SentinelFailover : public Sentinel {
 protected:
  // Holds `name` (watchdog lease, sync_replicas=1) with a waiter queued in
  // another client, lets `fail_over` move the master (it returns the new
  // master's port), then checks the hold is still there with no second
  // holder, and that its release on the new master wakes the waiter, whose
  // token is higher.
  static void expect_hold_survives(const std::string& name, const std::function<int(int)>& fail_over) {
    const ClientHandle holder = open("?sync_replicas=1");
    const ClientHandle waiting = open("?sync_replicas=1");
    const LockHandle held = new_lock(holder.get(), name);
    const LockHandle contended = new_lock(waiting.get(), name);
    LostRecorder lost;
    lost.attach(held.get());
    uint64_t first_token = 0;
    ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, &first_token), DLOCK_OK));
    auto waiter = acquire_in_background(contended.get(), 7, 30000);
    std::this_thread::sleep_for(milliseconds(200));

    const int old_master = cluster().master_port();
    const int new_master = fail_over(old_master);
    ASSERT_NE(old_master, new_master);
    EXPECT_TRUE(wait_until([&] { return client_stats(holder.get()).failovers >= 1; }, milliseconds(5000)));
    // The grant reached a replica before it counted, so the new master has it.
    EXPECT_TRUE(key_exists(cluster().node(new_master), name));
    std::this_thread::sleep_for(milliseconds(500));  // the holds were verified against the new master
    EXPECT_EQ(lost.calls(), 0);
    EXPECT_EQ(waiter.wait_for(milliseconds(0)), std::future_status::timeout) << "no second holder";

    EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));
    // Its grant waits for the new master's replicas (WAIT), which follow it within seconds.
    ASSERT_EQ(waiter.wait_for(milliseconds(15000)), std::future_status::ready)
        << "a release on the new master wakes it";
    const AcquireOutcome outcome = waiter.get();
    EXPECT_TRUE(status_is(outcome.status, DLOCK_OK));
    EXPECT_GT(outcome.token, first_token) << "tokens keep rising across the failover";
  }
};

TEST_F(SentinelFailover, AManualFailoverKeepsHoldsAndWaitersAreWokenOnTheNewMaster) {
  expect_hold_survives("kept", [](int) { return cluster().failover(); });
}

TEST_F(SentinelFailover, AKilledMasterIsReplacedAndHoldsSurviveWithSyncReplicas) {
  int killed = 0;
  expect_hold_survives("survivor", [&](int old_master) {
    killed = old_master;
    cluster().node(old_master).kill9();
    return cluster().await_new_master(old_master, seconds(15));
  });
  cluster().node(killed).restart();  // comes back empty; the sentinels make it a replica
}

// Without replica sync a failover to a replica that missed the grant makes a
// second holder possible; the first one hears of its loss from the immediate
// verification that follows the switch, not at its lease deadline.
TEST_F(Sentinel, WithoutSyncAGrantTheNewMasterMissedIsReportedLostAtOnce) {
  const ClientHandle holder = open_client(cluster().url(), options_with_watchdog(30000));
  const ClientHandle rival = open();
  const LockHandle held = new_lock(holder.get(), "window");
  const LockHandle taken = new_lock(rival.get(), "window");
  LostRecorder lost;
  lost.attach(held.get());
  // The holder's pool keeps an open connection: it stays authenticated below.
  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_OK));

  // One replica (the one to be promoted) stops receiving the stream: the
  // master asks for a password its replication link cannot give; the other
  // replica may not be promoted.
  RedisServer& master = cluster().master();
  std::vector<int> replicas;  // ROLE: {"master", offset, {{ip, port, offset}...}}
  const RedisReply role = master.command({"ROLE"});
  for (const RedisReply& replica : role.elements[2].elements)
    replicas.push_back(std::stoi(replica.elements[1].str));
  ASSERT_EQ(replicas.size(), 2u);
  RedisServer& promoted = cluster().node(replicas[0]);
  RedisServer& bystander = cluster().node(replicas[1]);
  bystander.command({"CONFIG", "SET", "replica-priority", "0"});
  // The sentinel that runs the failover reads it from INFO, every 10 s.
  ASSERT_TRUE(
      wait_until([&] { return cluster().replica_field(0, bystander.port(), "slave-priority") == "0"; },
                 milliseconds(15000)));
  master.command({"CONFIG", "SET", "requirepass", "window-pass"});
  promoted.command({"CLIENT", "KILL", "TYPE", "master"});
  ASSERT_TRUE(wait_until(
      [&] {
        return promoted.command({"INFO", "replication"}).str.find("master_link_status:down") !=
               std::string::npos;
      },
      milliseconds(3000)));

  ASSERT_TRUE(status_is(dlock_lock_acquire(held.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_FALSE(key_exists(promoted, "window"));
  const int64_t failover_ns = monotonic_ns();
  const int new_master = cluster().failover();
  master.command({"CONFIG", "SET", "requirepass", ""});
  bystander.command({"CONFIG", "SET", "replica-priority", "100"});
  ASSERT_EQ(new_master, promoted.port());

  ASSERT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(5000)))
      << "the holder is told at once, not after its 30 s lease";
  EXPECT_LT(ms_between(failover_ns, lost.last_call_ns()), 10000);
  // The window itself: another client is granted the same lock meanwhile.
  EXPECT_TRUE(status_is(dlock_lock_acquire(taken.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(held.get()), DLOCK_E_LOST));
  EXPECT_TRUE(status_is(dlock_lock_release(taken.get()), DLOCK_OK));
}

// A master demoted while the client's only sentinel could not tell it: the
// next command gets READONLY, and the client asks the sentinels again.
TEST_F(Sentinel, ReadonlyFromADemotedMasterMovesTheClient) {
  const LogCapture log(DLOCK_LOG_WARN);
  const std::string url =
      "redis-sentinel://127.0.0.1:" + std::to_string(cluster().sentinel_ports()[2]) + "#m";
  const ClientHandle client = open_client(url);
  const LockHandle lock = new_lock(client.get(), "readonly");
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK));
  ASSERT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));

  const int old_master = cluster().master_port();
  cluster().pause_sentinel(2);
  const int new_master = cluster().failover();
  // Demoted now rather than at the sentinels' next look at it.
  cluster().node(old_master).command({"REPLICAOF", "127.0.0.1", std::to_string(new_master)});
  ASSERT_TRUE(wait_until(
      [&] {
        const RedisReply role = cluster().node(old_master).command({"ROLE"});
        return !role.elements.empty() && role.elements[0].str == "slave";
      },
      milliseconds(15000)));
  cluster().resume_sentinel(2);

  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK));
  EXPECT_TRUE(key_exists(cluster().node(new_master), "readonly"));
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"READONLY"})) << log.dump();
  EXPECT_TRUE(log.has(DLOCK_LOG_WARN, {"failover", "moved"})) << log.dump();
}

TEST_F(Sentinel, AnUnknownMasterNameOrNoSentinelIsAConnectionError) {
  dlock_client* client = nullptr;
  const std::string unknown = "redis-sentinel://127.0.0.1:" + std::to_string(cluster().sentinel_ports()[0]) +
                              "?command_timeout_ms=1000#no-such-master";
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_client_open(unknown.c_str(), nullptr, &client), DLOCK_E_CONNECTION));
  EXPECT_NE(std::string(dlock_last_error()).find("no-such-master"), std::string::npos) << dlock_last_error();
  EXPECT_LT(monotonic_ms() - started, 1500);

  const std::string closed = "redis-sentinel://127.0.0.1:" + std::to_string(pick_free_port()) +
                             ",127.0.0.1:" + std::to_string(pick_free_port()) + "?command_timeout_ms=1000#m";
  const int64_t again = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_client_open(closed.c_str(), nullptr, &client), DLOCK_E_CONNECTION));
  EXPECT_NE(std::string(dlock_last_error()).find("sentinel"), std::string::npos) << dlock_last_error();
  EXPECT_LT(monotonic_ms() - again, 1500);
}

TEST_F(Sentinel, ReplicaSyncUndoesAGrantNoReplicaConfirmed) {
  const ClientHandle client = open("?sync_replicas=3&sync_timeout_ms=200");  // only 2 replicas exist
  const LockHandle lock = new_lock(client.get(), "unsynced");
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_FALSE(key_exists(cluster().master(), "unsynced")) << "the grant was undone";
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 700, -1, nullptr), DLOCK_NOT_ACQUIRED));
  EXPECT_GE(monotonic_ms() - started, 600) << "the wait went on until its end";
  EXPECT_EQ(client_stats(client.get()).grants, 0u);

  const ClientHandle synced = open("?sync_replicas=2");
  const LockHandle confirmed = new_lock(synced.get(), "unsynced");
  EXPECT_TRUE(status_is(dlock_lock_acquire(confirmed.get(), 0, -1, nullptr), DLOCK_OK));
  EXPECT_TRUE(status_is(dlock_lock_release(confirmed.get()), DLOCK_OK));
}

// Many grants by several threads while the master fails over three times:
// no two sections overlap and tokens rise in grant order.
TEST_F(Sentinel, SectionsStayExclusiveAndTokensRiseAcrossFailovers) {
  constexpr int kWorkers = 3;
  std::atomic<bool> stop{false};
  std::mutex sections_mutex;
  std::vector<Section> sections;
  std::vector<std::thread> workers;
  std::vector<ClientHandle> clients;
  for (int i = 0; i < kWorkers; ++i) clients.push_back(open("?sync_replicas=1"));
  for (int i = 0; i < kWorkers; ++i) {
    workers.emplace_back([&, i] {
      const LockHandle lock = new_lock(clients[static_cast<std::size_t>(i)].get(), "checked");
      while (!stop.load()) {
        uint64_t token = 0;
        if (dlock_lock_acquire(lock.get(), 2000, -1, &token) != DLOCK_OK) continue;
        Section section;
        section.token = token;
        section.owner = "worker" + std::to_string(i);
        section.start_ns = monotonic_ns();
        std::this_thread::sleep_for(milliseconds(5));
        section.end_ns = monotonic_ns();
        section.release_status = dlock_lock_release(lock.get());
        if (section.release_status != DLOCK_OK) continue;  // lost: its section may not count
        std::lock_guard<std::mutex> guard(sections_mutex);
        sections.push_back(section);
      }
    });
  }
  for (int round = 0; round < 3; ++round) {
    std::this_thread::sleep_for(milliseconds(500));
    cluster().failover();
    cluster().await_healthy(seconds(30));
  }
  std::this_thread::sleep_for(milliseconds(500));
  stop = true;
  for (std::thread& worker : workers) worker.join();
  const SafetyReport report = check_sections(sections);
  EXPECT_TRUE(report.clean()) << report.summary();
  EXPECT_GT(report.sections, 30u);
  EXPECT_GE(client_stats(clients[0].get()).failovers, 3u);
}

TEST(SentinelUrl, MalformedUrlsNameWhatIsWrong) {
  dlock_client* client = nullptr;
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis-sentinel://127.0.0.1:26379", nullptr, &client), "master"));
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis-sentinel://127.0.0.1:26379#", nullptr, &client), "master"));
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis-sentinel://#m", nullptr, &client), "host list is empty"));
  EXPECT_TRUE(invalid_naming(
      dlock_client_open("redis-sentinel://127.0.0.1:1,,127.0.0.1:2#m", nullptr, &client), "sentinel 2"));
  EXPECT_TRUE(invalid_naming(dlock_client_open("redis-sentinel://127.0.0.1:0#m", nullptr, &client), "port"));
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis://127.0.0.1:6390?sentinel_password=x", nullptr, &client),
                     "sentinel_password"));
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis-sentinel://127.0.0.1:1?sync_replicas=-1#m", nullptr, &client),
                     "sync_replicas"));
  EXPECT_TRUE(
      invalid_naming(dlock_client_open("redis-sentinel://127.0.0.1:1?sync_replicas=1&sync_timeout_ms=5000#m",
                                       nullptr, &client),
                     "sync_timeout_ms"));
  dlock_client_options options = default_options();
  options.sync_replicas = -2;
  EXPECT_TRUE(invalid_naming(dlock_client_open("redis://127.0.0.1:1", &options, &client), "sync_replicas"));
  EXPECT_EQ(client, nullptr);
}

TEST(SentinelUrl, NoMessageOrRecordQuotesEitherPassword) {
  const LogCapture log(DLOCK_LOG_DEBUG);
  const std::string url = "redis-sentinel://alice:master-Pa55@127.0.0.1:" + std::to_string(pick_free_port()) +
                          "?sentinel_user=watch&sentinel_password=sentinel-Pa55&command_timeout_ms=300#m";
  dlock_client* client = nullptr;
  EXPECT_TRUE(status_is(dlock_client_open(url.c_str(), nullptr, &client), DLOCK_E_CONNECTION));
  const std::string message = dlock_last_error();
  EXPECT_NE(message.find("redis-sentinel://127.0.0.1:"), std::string::npos) << message;
  for (const std::string secret : {"master-Pa55", "sentinel-Pa55"}) {
    EXPECT_EQ(message.find(secret), std::string::npos) << message;
    for (const LogRecord& record : log.records()) EXPECT_EQ(record.message.find(secret), std::string::npos);
  }
}

// A standalone server restarted without persistence: the pool's reconnect
// verifies the holds at once (not at the 30 s lease deadline), and the next
// grant's token is still above the lost one.
TEST(StandaloneRestart, HoldsAreVerifiedWhenThePoolReconnects) {
  RedisServer server;
  const ClientHandle client = open_client(server.url());
  const LockHandle lock = new_lock(client.get(), "restarted");
  LostRecorder lost;
  lost.attach(lock.get());
  uint64_t first = 0;
  ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, -1, &first), DLOCK_OK));
  server.kill9();
  server.restart();
  const int64_t restarted_ns = monotonic_ns();
  // Any command of the client reconnects its pool (the watchdog's next
  // renewal is 10 s away).
  const LockHandle unrelated = new_lock(client.get(), "unrelated");
  ASSERT_TRUE(status_is(dlock_lock_acquire(unrelated.get(), 0, 1000, nullptr), DLOCK_OK));
  ASSERT_TRUE(wait_until([&] { return lost.calls() == 1; }, milliseconds(5000)));
  EXPECT_LT(ms_between(restarted_ns, lost.last_call_ns()), 5000);
  uint64_t second = 0;
  const ClientHandle other = open_client(server.url());
  const LockHandle again = new_lock(other.get(), "restarted");
  ASSERT_TRUE(status_is(dlock_lock_acquire(again.get(), 0, -1, &second), DLOCK_OK));
  EXPECT_GT(second, first) << "fencing tokens keep rising after the counter was lost";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_E_LOST));
}

}  // namespace
}  // namespace dlock_test
