#include "sentinel_cluster.hpp"

#include <csignal>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "redis_info.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

constexpr auto kStartupTimeout = std::chrono::seconds(15);
constexpr auto kAdminTimeout = std::chrono::milliseconds(2000);

std::vector<std::string> node_lines(int master_port) {
  std::vector<std::string> lines{"enable-debug-command local"};
  if (master_port != 0) lines.push_back("replicaof 127.0.0.1 " + std::to_string(master_port));
  return lines;
}

// A field of a flat {name, value, ...} reply (an entry of SENTINEL replicas).
std::string field_of(const RedisReply& entry, const std::string& name) {
  for (std::size_t i = 0; i + 1 < entry.elements.size(); i += 2) {
    if (entry.elements[i].str == name) return entry.elements[i + 1].str;
  }
  return "";
}

std::string role_of(RedisServer& server) {
  const RedisReply reply = server.command({"ROLE"});
  return reply.elements.empty() ? "" : reply.elements[0].str;
}

}  // namespace

SentinelCluster::SentinelCluster() {
  nodes_.push_back(std::make_unique<RedisServer>(RedisServerConfig{"", node_lines(0)}));
  const int first_master = nodes_[0]->port();
  for (int i = 0; i < 2; ++i) {
    nodes_.push_back(std::make_unique<RedisServer>(RedisServerConfig{"", node_lines(first_master)}));
  }
  for (std::size_t i = 0; i < 3; ++i) {
    sentinel_dirs_.push_back(std::make_unique<TempDir>());
    sentinel_ports_.push_back(pick_free_port());
    std::ofstream file(sentinel_dirs_[i]->file("sentinel.conf"));
    file << "port " << sentinel_ports_[i] << "\n"
         << "bind 127.0.0.1\n"
         << "daemonize no\n"
         << "dir " << sentinel_dirs_[i]->path() << "\n"
         << "sentinel announce-ip 127.0.0.1\n"
         << "sentinel monitor " << master_name << " 127.0.0.1 " << first_master << " 2\n"
         << "sentinel down-after-milliseconds " << master_name << " 1000\n"
         << "sentinel failover-timeout " << master_name << " 5000\n"
         << "sentinel parallel-syncs " << master_name << " 2\n";
    file.close();  // written before the sentinel reads it
    sentinels_.emplace_back();
    start_sentinel(i);
  }
  await_healthy(std::chrono::seconds(20));
}

SentinelCluster::~SentinelCluster() = default;

void SentinelCluster::start_sentinel(std::size_t index) {
  sentinels_[index] = std::make_unique<ChildProcess>(
      std::vector<std::string>{test_server_binary(), sentinel_dirs_[index]->file("sentinel.conf"),
                               "--sentinel"},
      sentinel_dirs_[index]->file("sentinel.log"));
  const bool up = wait_until(
      [&] {
        try {
          return !sentinel_command(index, {"PING"}).is_error();
        } catch (const RedisIoError&) {
          return false;
        }
      },
      kStartupTimeout);
  if (!up)
    throw std::runtime_error("sentinel did not start; see " + sentinel_dirs_[index]->file("sentinel.log"));
}

void SentinelCluster::pause_sentinel(std::size_t index) {
  sentinels_[index]->signal(SIGSTOP);
}

void SentinelCluster::resume_sentinel(std::size_t index) {
  sentinels_[index]->signal(SIGCONT);
}

std::string SentinelCluster::url(const std::string& query) const {
  std::string text = "redis-sentinel://";
  for (std::size_t i = 0; i < sentinel_ports_.size(); ++i) {
    text += (i == 0 ? "127.0.0.1:" : ",127.0.0.1:") + std::to_string(sentinel_ports_[i]);
  }
  return text + query + "#" + master_name;
}

RedisReply SentinelCluster::sentinel_command(std::size_t index, const std::vector<std::string>& argv) {
  RedisConnection connection = RedisConnection::tcp("127.0.0.1", sentinel_ports_[index], kAdminTimeout);
  return connection.command(argv);
}

int SentinelCluster::master_port() {
  for (std::size_t i = 0; i < sentinel_ports_.size(); ++i) {
    try {
      const RedisReply reply = sentinel_command(i, {"SENTINEL", "get-master-addr-by-name", master_name});
      if (reply.elements.size() == 2) return std::stoi(reply.elements[1].str);
    } catch (const RedisIoError&) {
      // This sentinel is down: ask the next.
    }
  }
  throw std::runtime_error("no sentinel names the master");
}

RedisServer& SentinelCluster::node(int port) {
  for (auto& node : nodes_) {
    if (node->port() == port) return *node;
  }
  throw std::runtime_error("no data node on port " + std::to_string(port));
}

void SentinelCluster::await_healthy(std::chrono::milliseconds timeout) {
  const bool healthy = wait_until(
      [&] {
        try {
          const int port = master_port();
          for (std::size_t i = 0; i < sentinel_ports_.size(); ++i) {
            const RedisReply named =
                sentinel_command(i, {"SENTINEL", "get-master-addr-by-name", master_name});
            if (named.elements.size() != 2 || named.elements[1].str != std::to_string(port)) return false;
          }
          RedisServer& current = node(port);
          if (role_of(current) != "master") return false;
          // A demoted or restarted master still calls itself one until the
          // sentinels' next look at it (up to 10 s): do what they would do.
          for (auto& other : nodes_) {
            if (other->port() != port && role_of(*other) == "master") {
              other->command({"REPLICAOF", "127.0.0.1", std::to_string(port)});
            }
          }
          // Both replicas online; the sentinels learn of them from the master.
          const InfoFields replication = parse_info(current.command({"INFO", "replication"}).str);
          int online = 0;
          for (const auto& [name, value] : replication) {
            if (name.rfind("slave", 0) == 0 && value.find("state=online") != std::string::npos) ++online;
          }
          return online == 2;
        } catch (const std::exception&) {
          return false;
        }
      },
      timeout);
  if (!healthy) throw std::runtime_error("the sentinel cluster did not become healthy in time");
}

int SentinelCluster::await_new_master(int old_port, std::chrono::milliseconds timeout) {
  int port = 0;
  const bool moved = wait_until(
      [&] {
        try {
          port = master_port();
          return port != old_port && role_of(node(port)) == "master";
        } catch (const std::exception&) {
          return false;
        }
      },
      timeout);
  if (!moved) throw std::runtime_error("no new master within the timeout");
  return port;
}

std::string SentinelCluster::replica_field(std::size_t index, int replica_port, const std::string& field) {
  const RedisReply replicas = sentinel_command(index, {"SENTINEL", "replicas", master_name});
  for (const RedisReply& entry : replicas.elements) {
    if (field_of(entry, "port") == std::to_string(replica_port)) return field_of(entry, field);
  }
  return "";
}

int SentinelCluster::failover() {
  const int old_port = master_port();
  // A failover the sentinels abort is asked for again, of the next sentinel:
  // another sentinel whose view of the replicas is stale may turn the
  // promoted replica back at once (SENTINEL FAILOVER asks no agreement).
  for (std::size_t attempt = 0;; ++attempt) {
    const bool started = wait_until(
        [&] {
          try {
            return !sentinel_command(attempt % sentinel_ports_.size(), {"SENTINEL", "FAILOVER", master_name})
                        .is_error();
          } catch (const RedisIoError&) {
            return false;
          }
        },
        std::chrono::seconds(15));
    if (!started) throw std::runtime_error("SENTINEL FAILOVER was refused for 15 s");
    try {
      return await_new_master(old_port, std::chrono::seconds(10));
    } catch (const std::runtime_error&) {
      if (attempt == 2) throw;
    }
  }
}

}  // namespace dlock_test
