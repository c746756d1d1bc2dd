#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "redis_connection.hpp"
#include "redis_server.hpp"

namespace dlock_test {

// A slot being moved by hand, between begin_migration() and finish_migration().
struct SlotMigration {
  int slot = 0;
  int source_port = 0;
  int target_port = 0;
};

// A slot range and the port of the master owning it (CLUSTER SLOTS).
struct SlotRange {
  int first = 0;
  int last = 0;
  int master_port = 0;
};

// A Redis Cluster of 3 masters and 3 replicas on free loopback ports (each
// port's bus port, +10000, free too), `cluster-node-timeout 1000`, built with
// `<cli> --cluster create ... --cluster-replicas 1` where <cli> is the server
// binary's sibling (redis-cli, valkey-cli). The constructor returns once every
// node reports cluster_state:ok, all agree on the slot map and each master has
// its replica online. Start it from the test's main thread (the nodes die with
// the thread that started them).
class RedisCluster {
 public:
  RedisCluster();
  ~RedisCluster();
  RedisCluster(const RedisCluster&) = delete;
  RedisCluster& operator=(const RedisCluster&) = delete;

  // redis://127.0.0.1:<m1>,127.0.0.1:<m2>,127.0.0.1:<m3> followed by `query`
  // ("?sync_replicas=1"): the three masters the cluster was created with.
  std::string url(const std::string& query = "") const;
  // redis://127.0.0.1:<m1> followed by `query`: one seed.
  std::string seed_url_single(const std::string& query = "") const;

  // The ports of the masters that own slots now, in the order of their first slot.
  std::vector<int> master_ports();
  // Every node's port (masters and replicas, killed ones included).
  std::vector<int> node_ports() const;
  // The node (master or replica) listening on `port`.
  RedisServer& node(int port);

  // CLUSTER KEYSLOT of `key`.
  int slot_of(const std::string& key);
  // The port of the master that owns `slot` now.
  int master_for_slot(int slot);
  // The port of the master that owns the slot of `key` now.
  int master_for_key(const std::string& key) { return master_for_slot(slot_of(key)); }
  // One command on the master owning the slot of `key`.
  RedisReply command_on_owner(const std::string& key, const std::vector<std::string>& argv);
  // A master other than the one on `port`.
  int another_master(int port);
  // The port of a replica of the master on `master_port` (0 when it has none online).
  int replica_of(int master_port);

  // `count_per_master` names `<prefix><n>` for each master, in master_ports()
  // order: result[i] are names whose slots the i-th master owns.
  std::vector<std::vector<std::string>> names_on_each_master(std::size_t count_per_master,
                                                             const std::string& prefix);

  // SIGKILL of the node on `port` (no persistence: it comes back empty).
  void kill_node(int port);
  void kill_master(int port) { kill_node(port); }
  // Waits until a replica took over the slots of the killed master on
  // `old_port`, serves writes, and every live node agrees on the slot map;
  // returns the promoted node's port. Throws when that takes longer than `timeout`.
  int await_failover(int old_port, std::chrono::milliseconds timeout);
  // Starts a killed node again on its port and directory: it rejoins with its
  // node id and becomes a replica of the master that took its slots. Returns
  // once the cluster is healthy again (each master with a replica online).
  void restart_node(int port);
  // Waits until the live nodes say cluster_state:ok, agree on the slot map and
  // every master has a replica online.
  void await_healthy(std::chrono::milliseconds timeout);

  // Moves `slot` to the master on `to_port` as redis-cli --cluster reshard
  // would, then waits until every live node agrees.
  void migrate_slot(int slot, int to_port);
  // The same in steps, to leave a slot half moved: begin_migration() marks it
  // IMPORTING on the target and MIGRATING on the source (a client asking the
  // source for a key that is not there gets ASK); move_keys() MIGRATEs every
  // key of the slot; finish_migration() gives the slot to the target on every master.
  SlotMigration begin_migration(int slot, int to_port);
  void move_keys(const SlotMigration& migration);
  void finish_migration(const SlotMigration& migration);

  // The node id of the node on `port` (CLUSTER MYID).
  std::string node_id(int port);

 private:
  void create_cluster();
  std::vector<int> live_ports() const;
  RedisServer& any_live_node();
  // A description of the slot map as `port` sees it, equal on nodes that agree.
  std::string slot_map_seen_by(int port);
  std::vector<SlotRange> slot_ranges();
  bool healthy_now(std::size_t expected_masters);

  std::vector<std::unique_ptr<RedisServer>> nodes_;
  std::vector<int> seed_ports_;  // the masters at creation
  std::set<int> killed_;
  std::map<int, std::string> probe_keys_;  // per killed master, a key it owned
};

}  // namespace dlock_test
