// The ZkEnsemble fixture and the static ZooKeeper C client (scripts/deps-zookeeper.sh)
// together, through the client's own API (zookeeper.h): what the zookeeper://
// backend will build on (docs/design/backends.md 2.2-2.4). Built only when
// CMake found the client (DLOCK_WITH_ZOOKEEPER).
#include <gtest/gtest.h>
#include <zookeeper/zookeeper.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>

#include "redis_server.hpp"
#include "wait_until.hpp"
#include "zk_ensemble.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct ZkClose {
  void operator()(zhandle_t* handle) const { zookeeper_close(handle); }
};
using ZkSession = std::unique_ptr<zhandle_t, ZkClose>;

// A session on `hosts` (not waited for).
ZkSession open_session(const std::string& hosts, int timeout_ms) {
  zoo_set_debug_level(ZOO_LOG_LEVEL_WARN);
  ZkSession session(zookeeper_init(hosts.c_str(), nullptr, timeout_ms, nullptr, nullptr, 0));
  if (!session) throw std::runtime_error("zookeeper_init " + hosts + " failed");
  return session;
}

bool connected(zhandle_t* handle) {
  return zoo_state(handle) == ZOO_CONNECTED_STATE;
}

ZkSession connected_session(const std::string& hosts, int timeout_ms = ZkEnsemble::max_session_timeout_ms) {
  ZkSession session = open_session(hosts, timeout_ms);
  if (!wait_until([&] { return connected(session.get()); }, seconds(10))) {
    throw std::runtime_error("no ZooKeeper session on " + hosts + " within 10 s");
  }
  return session;
}

// An ephemeral sequential node under `parent` named as Curator's mutex names them; its Stat from zoo_create2.
struct CreatedNode {
  int rc = ZSYSTEMERROR;
  std::string path;
  Stat stat{};
};

CreatedNode create_lock_node(zhandle_t* handle, const std::string& parent, const std::string& owner) {
  CreatedNode node;
  char path[512];
  const std::string prefix = parent + "/_c_" + owner + "-lock-";
  node.rc = zoo_create2(handle, prefix.c_str(), owner.data(), static_cast<int>(owner.size()),
                        &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL, path, sizeof path, &node.stat);
  if (node.rc == ZOK) node.path = path;
  return node;
}

bool process_gone(pid_t pid) {
  return kill(pid, 0) != 0 && errno == ESRCH;
}

std::int64_t epoch_of(std::int64_t zxid) {
  return zxid >> 32;
}

TEST(ZkEnsembleOneNode, EphemeralSequentialNodeHasItsCzxidAndGoesWithItsSession) {
  pid_t server_pid;
  {
    ZkEnsemble zk({1});
    ASSERT_EQ(zk.size(), 1u);
    EXPECT_EQ(zk.leader_index(), 0u);
    EXPECT_EQ(zk.mode(0), "standalone");
    EXPECT_EQ(zk.connect_string(), "127.0.0.1:" + std::to_string(zk.client_port(0)));
    server_pid = zk.pid(0);
    EXPECT_FALSE(process_gone(server_pid));

    ZkSession holder = connected_session(zk.connect_string());
    ZkSession observer = connected_session(zk.connect_string());
    ASSERT_EQ(
        zoo_create(holder.get(), "/locks", nullptr, -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_CONTAINER, nullptr, 0),
        ZOK);
    const CreatedNode first = create_lock_node(holder.get(), "/locks", "a");
    ASSERT_EQ(first.rc, ZOK) << zerror(first.rc);
    EXPECT_EQ(first.path, "/locks/_c_a-lock-0000000000");
    EXPECT_GT(first.stat.czxid, 0);
    EXPECT_EQ(first.stat.czxid, first.stat.mzxid);
    EXPECT_EQ(first.stat.ephemeralOwner, zoo_client_id(holder.get())->client_id);
    const CreatedNode second = create_lock_node(holder.get(), "/locks", "b");
    ASSERT_EQ(second.rc, ZOK) << zerror(second.rc);
    EXPECT_EQ(second.path, "/locks/_c_b-lock-0000000001");
    EXPECT_GT(second.stat.czxid, first.stat.czxid);

    Stat seen{};
    ASSERT_EQ(zoo_exists(observer.get(), first.path.c_str(), 0, &seen), ZOK);
    EXPECT_EQ(seen.czxid, first.stat.czxid);

    holder.reset();  // zookeeper_close: the session ends, and its ephemeral nodes with it
    EXPECT_TRUE(wait_until(
        [&] { return zoo_exists(observer.get(), first.path.c_str(), 0, nullptr) == ZNONODE; }, seconds(2)));
    EXPECT_EQ(zoo_exists(observer.get(), second.path.c_str(), 0, nullptr), ZNONODE);
    // The emptied container parent goes too, within the fixture's check interval (1 s).
    EXPECT_TRUE(
        wait_until([&] { return zoo_exists(observer.get(), "/locks", 0, nullptr) == ZNONODE; }, seconds(5)));
  }
  EXPECT_TRUE(process_gone(server_pid)) << "the fixture left its JVM (pid " << server_pid << ") behind";
}

void record_exists(int rc, const Stat*, const void* data) {
  static_cast<std::promise<int>*>(const_cast<void*>(data))->set_value(rc);
}

TEST(ZkEnsembleOneNode, ClosedPortFailsWithinABoundedTime) {
  // Declared before the session: zookeeper_close completes a request still pending.
  std::promise<int> answered;
  std::future<int> answer = answered.get_future();
  const std::string hosts = "127.0.0.1:" + std::to_string(pick_free_port());
  ZkSession session = open_session(hosts, 1000);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(zoo_aexists(session.get(), "/", 0, record_exists, &answered), ZOK);
  ASSERT_EQ(answer.wait_for(seconds(5)), std::future_status::ready)
      << "no answer within 5 s from a session on a closed port " << hosts;
  const auto elapsed = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start);
  EXPECT_EQ(answer.get(), ZCONNECTIONLOSS);
  EXPECT_FALSE(connected(session.get()));
  RecordProperty("closed_port_error_ms", static_cast<int>(elapsed.count()));
}

TEST(ZkEnsembleThreeNodes, LeaderKilledWhileASessionHoldsAnEphemeralNode) {
  const auto started_at = std::chrono::steady_clock::now();
  ZkEnsemble zk;
  RecordProperty(
      "start_ms",
      static_cast<int>(
          std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started_at).count()));
  ASSERT_EQ(zk.size(), 3u);
  const std::size_t leader = zk.leader_index();
  for (std::size_t i = 0; i < zk.size(); ++i) EXPECT_EQ(zk.mode(i), i == leader ? "leader" : "follower") << i;
  EXPECT_EQ(zk.connect_string(), zk.address(0) + "," + zk.address(1) + "," + zk.address(2));

  ZkSession holder = connected_session(zk.connect_string());
  const std::int64_t session_id = zoo_client_id(holder.get())->client_id;
  ASSERT_EQ(zoo_create(holder.get(), "/ha", nullptr, -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_CONTAINER, nullptr, 0),
            ZOK);
  const CreatedNode held = create_lock_node(holder.get(), "/ha", "held");
  ASSERT_EQ(held.rc, ZOK) << zerror(held.rc);

  const pid_t old_leader_pid = zk.pid(leader);
  const auto killed_at = std::chrono::steady_clock::now();
  zk.kill9(leader);
  EXPECT_FALSE(zk.running(leader));
  EXPECT_TRUE(process_gone(old_leader_pid));
  const std::size_t new_leader = zk.leader_index(seconds(20));
  EXPECT_NE(new_leader, leader);
  RecordProperty(
      "election_ms",
      static_cast<int>(
          std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - killed_at).count()));

  // The session lives on (its timeout, 4 s, outlasts the election) and still owns the node.
  Stat still{};
  ASSERT_TRUE(
      wait_until([&] { return zoo_exists(holder.get(), held.path.c_str(), 0, &still) == ZOK; }, seconds(15)))
      << "the held node is gone or the session is not back; state " << zoo_state(holder.get());
  EXPECT_TRUE(connected(holder.get()));
  EXPECT_EQ(zoo_client_id(holder.get())->client_id, session_id);
  EXPECT_EQ(still.czxid, held.stat.czxid);
  EXPECT_EQ(still.ephemeralOwner, session_id);

  // A node created under the new leader: a larger czxid, from a higher epoch.
  const CreatedNode later = create_lock_node(holder.get(), "/ha", "later");
  ASSERT_EQ(later.rc, ZOK) << zerror(later.rc);
  EXPECT_GT(later.stat.czxid, held.stat.czxid);
  EXPECT_GT(epoch_of(later.stat.czxid), epoch_of(held.stat.czxid));

  // The old leader comes back as a follower and has both nodes.
  zk.restart(leader);
  EXPECT_TRUE(zk.running(leader));
  EXPECT_NE(zk.pid(leader), old_leader_pid);
  EXPECT_EQ(zk.mode(leader), "follower");
  EXPECT_EQ(zk.leader_index(), new_leader);
  ZkSession reader = connected_session(zk.address(leader));
  Stat replicated{};
  EXPECT_EQ(zoo_exists(reader.get(), held.path.c_str(), 0, &replicated), ZOK);
  EXPECT_EQ(replicated.czxid, held.stat.czxid);
  EXPECT_EQ(zoo_exists(reader.get(), later.path.c_str(), 0, nullptr), ZOK);
}

}  // namespace
}  // namespace dlock_test
