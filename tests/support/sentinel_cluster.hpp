#pragma once

#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "redis_connection.hpp"
#include "redis_server.hpp"
#include "temp_dir.hpp"

namespace dlock_test {

// One master, two replicas and three sentinels on free loopback ports, the
// sentinels monitoring the master as `m` with quorum 2, down-after 1000 ms and
// failover-timeout 5000 ms. Start it from the test's main thread (the children
// die with the thread that started them).
class SentinelCluster {
 public:
  static constexpr const char* master_name = "m";

  SentinelCluster();
  ~SentinelCluster();
  SentinelCluster(const SentinelCluster&) = delete;
  SentinelCluster& operator=(const SentinelCluster&) = delete;

  // redis-sentinel://127.0.0.1:<s1>,...#m followed by `query` ("?sync_replicas=1").
  std::string url(const std::string& query = "") const;
  const std::vector<int>& sentinel_ports() const { return sentinel_ports_; }

  // The master's port as the first sentinel that answers names it.
  int master_port();
  // The data node (master or replica) listening on `port`.
  RedisServer& node(int port);
  RedisServer& master() { return node(master_port()); }
  // One command on sentinel `index`.
  RedisReply sentinel_command(std::size_t index, const std::vector<std::string>& argv);

  // A field of what sentinel `index` knows of the replica on `replica_port`
  // (SENTINEL replicas), e.g. "slave-priority"; empty when it does not know it.
  std::string replica_field(std::size_t index, int replica_port, const std::string& field);

  // SENTINEL FAILOVER (retried while the sentinels are not ready for one),
  // then waits until a new master serves writes; returns its port.
  int failover();
  // Waits until the sentinels name a master other than `old_port` whose ROLE is master.
  int await_new_master(int old_port, std::chrono::milliseconds timeout);
  // Waits until every sentinel names the same master and it has both
  // replicas online (failover() retries while the sentinels catch up).
  void await_healthy(std::chrono::milliseconds timeout);

  // SIGSTOP / SIGCONT of sentinel `index`: its clients hear nothing meanwhile.
  void pause_sentinel(std::size_t index);
  void resume_sentinel(std::size_t index);

 private:
  void start_sentinel(std::size_t index);

  std::vector<std::unique_ptr<RedisServer>> nodes_;
  std::vector<int> sentinel_ports_;
  std::vector<std::unique_ptr<TempDir>> sentinel_dirs_;
  std::vector<std::unique_ptr<ChildProcess>> sentinels_;
};

}  // namespace dlock_test
