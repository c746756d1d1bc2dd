#include "deployment.hpp"

#include <chrono>
#include <stdexcept>

#include "wait_until.hpp"

namespace dlock_safety {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A replica sends AUTH with its masterauth; a master with no password answers
// it with an error, and the replica gives up the sync and retries: the
// replication link stays down while every client of the master is untouched.
constexpr const char* kCutPassword = "safety-run-cut";
// A ZooKeeper session as long as the other deployments' watchdog leases
// (phase_run's kWatchdogMs): a killed or paused holder's node goes within it.
constexpr int kZkSessionTimeoutMs = 2000;

dlock_test::RedisServerConfig standalone_config(bool appendonly) {
  dlock_test::RedisServerConfig config;
  if (appendonly) config.extra_lines = {"appendonly yes", "appendfsync always"};
  return config;
}

bool link_down(dlock_test::RedisServer& replica) {
  return replica.command({"INFO", "replication"}).str.find("master_link_status:down") != std::string::npos;
}

// The ports of the replicas attached to `master` (ROLE: master, offset, [[ip, port, offset]...]).
std::vector<int> replicas_of(dlock_test::RedisServer& master) {
  std::vector<int> ports;
  const dlock_test::RedisReply role = master.command({"ROLE"});
  for (const dlock_test::RedisReply& replica : role.elements.at(2).elements)
    ports.push_back(std::stoi(replica.elements.at(1).str));
  return ports;
}

}  // namespace

Deployment::Deployment(bool appendonly) : topology_(Topology::standalone) {
  for (int i = 0; i < 3; ++i)
    servers_.push_back(std::make_unique<dlock_test::RedisServer>(standalone_config(appendonly)));
}

Deployment::Deployment(dlock_test::SentinelCluster& sentinel)
    : topology_(Topology::sentinel), sentinel_(&sentinel) {}

Deployment::Deployment(dlock_test::RedisCluster& cluster)
    : topology_(Topology::cluster), cluster_(&cluster) {}

Deployment::Deployment(dlock_test::ZkEnsemble& ensemble)
    : topology_(Topology::zookeeper), ensemble_(&ensemble) {}

Deployment::Deployment(dlock_test::SqlTestServer& server, Topology topology)
    : topology_(topology), sql_(&server) {}

std::string Deployment::url(bool sync) const {
  const std::string query = sync ? "?sync_replicas=1" : "";
  switch (topology_) {
    case Topology::sentinel:
      return sentinel_->url(query);
    case Topology::cluster:
      return cluster_->url(query);
    case Topology::zookeeper:
      return "zookeeper://" + ensemble_->connect_string() +
             "?session_timeout_ms=" + std::to_string(kZkSessionTimeoutMs);
    case Topology::postgresql:
    case Topology::mariadb:
      return sql_->url();
    case Topology::standalone:
      break;
  }
  return servers_.front()->url() + query;
}

std::string Deployment::redlock_urls() const {
  std::string urls;
  for (const auto& server : servers_) urls += (urls.empty() ? "" : ";") + server->url();
  return urls;
}

std::vector<std::string> Deployment::names(std::size_t count, const std::string& prefix) {
  if (topology_ == Topology::cluster) return cluster_->names_on_each_master(count, prefix).front();
  std::vector<std::string> result;
  for (std::size_t i = 0; i < count; ++i) result.push_back(prefix + std::to_string(i));
  return result;
}

void Deployment::kill_clients() {
  servers_.front()->command({"CLIENT", "KILL", "TYPE", "normal"});
}

void Deployment::restart_primary() {
  servers_.front()->kill9();
  servers_.front()->restart();
}

void Deployment::cut_replication() {
  dlock_test::RedisServer& master = topology_ == Topology::sentinel
                                        ? sentinel_->master()
                                        : cluster_->node(cluster_->master_ports().front());
  target_port_ = master.port();
  cut_replicas_ = replicas_of(master);
  for (int port : cut_replicas_) {
    dlock_test::RedisServer& replica = node(port);
    replica.command({"CONFIG", "SET", "masterauth", kCutPassword});
    replica.command({"CLIENT", "KILL", "TYPE", "master"});
    if (!dlock_test::wait_until([&] { return link_down(replica); }, milliseconds(5000)))
      throw std::runtime_error("a replica kept its link to the master");
  }
}

void Deployment::fail_over() {
  if (topology_ == Topology::sentinel) {
    sentinel_->failover();
  } else {
    cluster_->kill_master(target_port_);
    cluster_->await_failover(target_port_, seconds(30));
  }
  for (int port : cut_replicas_) node(port).command({"CONFIG", "SET", "masterauth", ""});
  if (topology_ == Topology::sentinel) {
    sentinel_->await_healthy(seconds(60));
  } else {
    cluster_->restart_node(target_port_);  // back as a replica of the master that took its slots
  }
}

void Deployment::kill_leader() {
  const std::size_t leader = ensemble_->leader_index();
  ensemble_->kill9(leader);
  ensemble_->leader_index(seconds(30));  // the survivors elect one
  ensemble_->restart(leader);
}

dlock_test::RedisServer& Deployment::node(int port) {
  return topology_ == Topology::sentinel ? sentinel_->node(port) : cluster_->node(port);
}

}  // namespace dlock_safety
