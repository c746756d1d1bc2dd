// The servers a fault phase runs against, and the server-side faults
// themselves: a restart of the primary, a CLIENT KILL, a failover to a
// replica that missed the last grants, a ZooKeeper leader killed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plan.hpp"
#include "redis_cluster.hpp"
#include "redis_server.hpp"
#include "sentinel_cluster.hpp"
#include "sql_test_server.hpp"
#include "zk_ensemble.hpp"

namespace dlock_safety {

class Deployment {
 public:
  // Three standalone servers: RedLock runs over all three, everything else
  // over the first (the one the faults hit). With `appendonly`, every write
  // is fsynced to the AOF before it is acknowledged.
  explicit Deployment(bool appendonly);
  // One of the long-lived replicated set-ups, shared by the phases with and
  // without sync_replicas.
  explicit Deployment(dlock_test::SentinelCluster& sentinel);
  explicit Deployment(dlock_test::RedisCluster& cluster);
  // A 3-node ZooKeeper ensemble, shared by the ZooKeeper phases.
  explicit Deployment(dlock_test::ZkEnsemble& ensemble);
  // A PostgreSQL or MariaDB server, its lock table.
  explicit Deployment(dlock_test::SqlTestServer& server, Topology topology);

  // The URL the workers open; `sync` adds ?sync_replicas=1.
  std::string url(bool sync) const;
  // RedLock's three servers, ';'-separated (standalone only).
  std::string redlock_urls() const;
  // `count` distinct names starting with `prefix`, all on the master the
  // failover hits (on a cluster: in slots that master owns).
  std::vector<std::string> names(std::size_t count, const std::string& prefix);

  // CLIENT KILL TYPE normal on the primary: every client connection drops.
  void kill_clients();
  // SIGKILL of the primary and a start on the same port and directory.
  void restart_primary();
  // The target master's replicas stop receiving its stream (each is given a
  // masterauth the master refuses), so the grants made from now on exist on
  // the master only.
  void cut_replication();
  // The failover to one of those replicas (Sentinel: SENTINEL FAILOVER;
  // Cluster: SIGKILL of the master), then the set-up healed: the old master
  // back as a replica, every replica streaming.
  void fail_over();
  // kill -9 of the ensemble's leader; once another is elected, the killed
  // node is started again and rejoins as a follower.
  void kill_leader();

 private:
  Topology topology_;
  std::vector<std::unique_ptr<dlock_test::RedisServer>> servers_;  // standalone
  dlock_test::SentinelCluster* sentinel_ = nullptr;
  dlock_test::RedisCluster* cluster_ = nullptr;
  dlock_test::ZkEnsemble* ensemble_ = nullptr;
  dlock_test::SqlTestServer* sql_ = nullptr;
  dlock_test::RedisServer& node(int port);  // a replicated set-up's node

  int target_port_ = 0;            // the master cut_replication() cut off
  std::vector<int> cut_replicas_;  // its replicas, until fail_over() heals them
};

}  // namespace dlock_safety
