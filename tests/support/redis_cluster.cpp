#include "redis_cluster.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

#include "child_process.hpp"
#include "port_claims.hpp"
#include "redis_info.hpp"
#include "temp_dir.hpp"
#include "wait_until.hpp"

namespace dlock_test {
namespace {

constexpr int kNodes = 6;
constexpr std::size_t kMasters = 3;
constexpr int kBusPortOffset = 10000;
constexpr auto kCreateTimeout = std::chrono::seconds(60);
constexpr auto kHealthyTimeout = std::chrono::seconds(30);

// A port P whose cluster bus port P+10000 this process claims too (see
// port_claims.hpp). A port taken before the node binds it makes RedisServer
// try another.
int pick_cluster_port() {
  thread_local std::mt19937 random{std::random_device{}()};
  std::uniform_int_distribution<int> range(kLowestClaimedPort, kHighestClaimedPort - kBusPortOffset);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int port = range(random);
    if (!claim_port(port)) continue;
    if (claim_port(port + kBusPortOffset)) return port;
    release_port(port);
  }
  throw std::runtime_error("cannot claim a loopback port with its cluster bus port");
}

std::string directory_on_path_holding(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream directories(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    if (directory.empty()) directory = ".";
    if (access((directory + "/" + program).c_str(), X_OK) == 0) return directory;
  }
  return "";
}

// The cli beside the server binary: redis-server -> redis-cli, valkey-server -> valkey-cli.
std::string cli_binary() {
  const std::string server = test_server_binary();
  const std::size_t slash = server.rfind('/');
  const std::string base = slash == std::string::npos ? server : server.substr(slash + 1);
  const std::string suffix = "-server";
  if (base.size() <= suffix.size() || base.compare(base.size() - suffix.size(), suffix.size(), suffix) != 0)
    throw std::runtime_error("cannot name the cli of server binary " + server);
  const std::string cli = base.substr(0, base.size() - suffix.size()) + "-cli";
  const std::string directory =
      slash == std::string::npos ? directory_on_path_holding(server) : server.substr(0, slash);
  if (!directory.empty() && access((directory + "/" + cli).c_str(), X_OK) == 0) return directory + "/" + cli;
  return cli;  // ChildProcess looks it up on PATH
}

RedisServerConfig node_config() {
  RedisServerConfig config;
  config.extra_lines = {"cluster-enabled yes", "cluster-node-timeout 1000", "cluster-config-file nodes.conf",
                        "enable-debug-command local"};
  config.pick_port = pick_cluster_port;
  return config;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

// "127.0.0.1:7001@17001[,hostname]" -> 7001
int port_of_address(const std::string& address) {
  const std::size_t colon = address.rfind(':', address.find('@'));
  return std::stoi(address.substr(colon + 1));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::istringstream stream(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

RedisReply checked(RedisReply reply, const std::string& what) {
  if (reply.is_error()) throw std::runtime_error(what + ": " + reply.str);
  return reply;
}

// The ports of the replicas the master's INFO replication lists as online.
std::vector<int> online_replica_ports(RedisServer& master) {
  std::vector<int> ports;
  for (const auto& [name, value] : parse_info(master.command({"INFO", "replication"}).str)) {
    if (name.rfind("slave", 0) != 0 || value.find("state=online") == std::string::npos) continue;
    const std::size_t at = value.find("port=");
    if (at != std::string::npos) ports.push_back(std::stoi(value.substr(at + 5)));
  }
  return ports;
}

}  // namespace

RedisCluster::RedisCluster() {
  for (int i = 0; i < kNodes; ++i) nodes_.push_back(std::make_unique<RedisServer>(node_config()));
  create_cluster();
  await_healthy(kHealthyTimeout);
  seed_ports_ = master_ports();
}

RedisCluster::~RedisCluster() = default;

void RedisCluster::create_cluster() {
  std::vector<std::string> argv{cli_binary(), "--cluster", "create"};
  for (const auto& node : nodes_) argv.push_back("127.0.0.1:" + std::to_string(node->port()));
  argv.insert(argv.end(), {"--cluster-replicas", "1", "--cluster-yes"});
  const TempDir log_dir;
  const std::string log = log_dir.file("create.log");
  ChildProcess cli(argv, log);
  const std::optional<int> status = cli.wait_for(kCreateTimeout);
  if (status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0) return;
  std::ifstream file(log);
  const std::string output((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  throw std::runtime_error("cluster create failed (" +
                           (status ? describe_wait_status(*status) : std::string("timed out")) +
                           "): " + output);
}

std::string RedisCluster::url(const std::string& query) const {
  std::string text = "redis://";
  for (std::size_t i = 0; i < seed_ports_.size(); ++i) {
    text += (i == 0 ? "127.0.0.1:" : ",127.0.0.1:") + std::to_string(seed_ports_[i]);
  }
  return text + query;
}

std::string RedisCluster::seed_url_single(const std::string& query) const {
  return "redis://127.0.0.1:" + std::to_string(seed_ports_.at(0)) + query;
}

std::vector<int> RedisCluster::node_ports() const {
  std::vector<int> ports;
  for (const auto& node : nodes_) ports.push_back(node->port());
  return ports;
}

std::vector<int> RedisCluster::live_ports() const {
  std::vector<int> ports;
  for (const auto& node : nodes_) {
    if (killed_.count(node->port()) == 0) ports.push_back(node->port());
  }
  return ports;
}

RedisServer& RedisCluster::node(int port) {
  for (auto& node : nodes_) {
    if (node->port() == port) return *node;
  }
  throw std::runtime_error("no cluster node on port " + std::to_string(port));
}

RedisServer& RedisCluster::any_live_node() {
  for (const int port : live_ports()) {
    try {
      RedisServer& candidate = node(port);
      candidate.command({"PING"});
      return candidate;
    } catch (const RedisIoError&) {
      // Not answering: ask the next.
    }
  }
  throw std::runtime_error("no cluster node answers");
}

std::string RedisCluster::node_id(int port) {
  return checked(node(port).command({"CLUSTER", "MYID"}), "CLUSTER MYID").str;
}

int RedisCluster::slot_of(const std::string& key) {
  return static_cast<int>(
      checked(any_live_node().command({"CLUSTER", "KEYSLOT", key}), "CLUSTER KEYSLOT").integer);
}

std::vector<SlotRange> RedisCluster::slot_ranges() {
  // CLUSTER SLOTS: [[first, last, [ip, port, id], replicas...], ...]
  const RedisReply slots = checked(any_live_node().command({"CLUSTER", "SLOTS"}), "CLUSTER SLOTS");
  std::vector<SlotRange> ranges;
  for (const RedisReply& range : slots.elements) {
    ranges.push_back({static_cast<int>(range.elements.at(0).integer),
                      static_cast<int>(range.elements.at(1).integer),
                      static_cast<int>(range.elements.at(2).elements.at(1).integer)});
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const SlotRange& a, const SlotRange& b) { return a.first < b.first; });
  return ranges;
}

namespace {

int owner_in(const std::vector<SlotRange>& ranges, int slot) {
  for (const SlotRange& range : ranges) {
    if (range.first <= slot && slot <= range.last) return range.master_port;
  }
  throw std::runtime_error("no master owns slot " + std::to_string(slot));
}

}  // namespace

int RedisCluster::master_for_slot(int slot) {
  return owner_in(slot_ranges(), slot);
}

std::vector<int> RedisCluster::master_ports() {
  std::vector<int> ports;
  for (const SlotRange& range : slot_ranges()) {
    if (std::find(ports.begin(), ports.end(), range.master_port) == ports.end())
      ports.push_back(range.master_port);
  }
  return ports;
}

int RedisCluster::another_master(int port) {
  for (const int master : master_ports()) {
    if (master != port) return master;
  }
  throw std::runtime_error("no master but the one on port " + std::to_string(port));
}

RedisReply RedisCluster::command_on_owner(const std::string& key, const std::vector<std::string>& argv) {
  return node(master_for_key(key)).command(argv);
}

int RedisCluster::replica_of(int master_port) {
  const std::vector<int> replicas = online_replica_ports(node(master_port));
  return replicas.empty() ? 0 : replicas.front();
}

std::vector<std::vector<std::string>> RedisCluster::names_on_each_master(std::size_t count_per_master,
                                                                         const std::string& prefix) {
  const std::vector<SlotRange> ranges = slot_ranges();
  const std::vector<int> masters = master_ports();
  std::vector<std::vector<std::string>> names(masters.size());
  std::size_t complete = 0;
  for (long n = 0; complete < masters.size(); ++n) {
    std::string name = prefix + std::to_string(n);
    const int port = owner_in(ranges, slot_of(name));
    const auto owner = std::find(masters.begin(), masters.end(), port) - masters.begin();
    auto& list = names[static_cast<std::size_t>(owner)];
    if (list.size() == count_per_master) continue;
    list.push_back(std::move(name));
    if (list.size() == count_per_master) ++complete;
  }
  return names;
}

std::string RedisCluster::slot_map_seen_by(int port) {
  // CLUSTER NODES: <id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot>...
  std::vector<std::string> owners;
  for (const std::string& line :
       lines_of(checked(node(port).command({"CLUSTER", "NODES"}), "CLUSTER NODES").str)) {
    const std::vector<std::string> words = words_of(line);
    if (words.size() < 8) continue;
    std::string entry = std::to_string(port_of_address(words[1]));
    bool owns = false;
    for (std::size_t i = 8; i < words.size(); ++i) {
      if (words[i].front() == '[') continue;  // a migration in progress, not ownership
      entry += " " + words[i];
      owns = true;
    }
    if (owns) owners.push_back(entry);
  }
  std::sort(owners.begin(), owners.end());
  std::string map;
  for (const std::string& entry : owners) map += entry + ";";
  return map;
}

// Every live node: cluster_state:ok, no live node flagged failing in its
// view, the same slot map; each of the `expected_masters` masters with a
// replica online when `expected_masters` replicas are alive.
bool RedisCluster::healthy_now(std::size_t expected_masters) {
  const std::vector<int> live = live_ports();
  std::string first_map;
  for (const int port : live) {
    const std::string info = node(port).command({"CLUSTER", "INFO"}).str;
    if (info.find("cluster_state:ok") == std::string::npos) return false;
    for (const std::string& line : lines_of(node(port).command({"CLUSTER", "NODES"}).str)) {
      const std::vector<std::string> words = words_of(line);
      if (words.size() < 3 || killed_.count(port_of_address(words[1])) != 0) continue;
      if (words[2].find("fail") != std::string::npos) return false;
    }
    const std::string map = slot_map_seen_by(port);
    if (first_map.empty()) first_map = map;
    if (map != first_map) return false;
  }
  const std::vector<int> masters = master_ports();
  if (masters.size() != expected_masters) return false;
  if (live.size() < 2 * expected_masters) return true;
  return std::all_of(masters.begin(), masters.end(),
                     [&](int master) { return !online_replica_ports(node(master)).empty(); });
}

void RedisCluster::await_healthy(std::chrono::milliseconds timeout) {
  const bool healthy = wait_until(
      [&] {
        try {
          return healthy_now(kMasters);
        } catch (const std::exception&) {
          return false;
        }
      },
      timeout);
  if (!healthy) throw std::runtime_error("the Redis cluster did not become healthy in time");
}

void RedisCluster::kill_node(int port) {
  // A key the node owns, to see its successor serve writes (await_failover).
  const std::vector<int> masters = master_ports();
  if (std::find(masters.begin(), masters.end(), port) != masters.end()) {
    for (long n = 0;; ++n) {
      const std::string key = "cluster-probe-" + std::to_string(n);
      if (master_for_key(key) == port) {
        probe_keys_[port] = key;
        break;
      }
    }
  }
  killed_.insert(port);
  node(port).kill9();
}

int RedisCluster::await_failover(int old_port, std::chrono::milliseconds timeout) {
  const std::string probe = probe_keys_.at(old_port);
  int promoted = 0;
  const bool done = wait_until(
      [&] {
        try {
          promoted = master_for_key(probe);
          if (promoted == old_port || !healthy_now(kMasters)) return false;
          return !node(promoted).command({"SET", probe, "written"}).is_error() &&
                 node(promoted).command({"DEL", probe}).integer == 1;
        } catch (const std::exception&) {
          return false;
        }
      },
      timeout);
  if (!done)
    throw std::runtime_error("no replica took over from port " + std::to_string(old_port) + " in time");
  return promoted;
}

void RedisCluster::restart_node(int port) {
  node(port).restart();
  killed_.erase(port);
  await_healthy(kHealthyTimeout);
}

SlotMigration RedisCluster::begin_migration(int slot, int to_port) {
  SlotMigration migration{slot, master_for_slot(slot), to_port};
  if (migration.source_port == to_port)
    throw std::runtime_error("slot " + std::to_string(slot) + " is already on port " +
                             std::to_string(to_port));
  const std::string slot_text = std::to_string(slot);
  checked(
      node(to_port).command({"CLUSTER", "SETSLOT", slot_text, "IMPORTING", node_id(migration.source_port)}),
      "SETSLOT IMPORTING");
  checked(
      node(migration.source_port).command({"CLUSTER", "SETSLOT", slot_text, "MIGRATING", node_id(to_port)}),
      "SETSLOT MIGRATING");
  return migration;
}

void RedisCluster::move_keys(const SlotMigration& migration) {
  RedisServer& source = node(migration.source_port);
  for (;;) {
    const RedisReply keys = checked(
        source.command({"CLUSTER", "GETKEYSINSLOT", std::to_string(migration.slot), "100"}), "GETKEYSINSLOT");
    if (keys.elements.empty()) return;
    std::vector<std::string> argv{"MIGRATE", "127.0.0.1", std::to_string(migration.target_port), "", "0",
                                  "5000",    "KEYS"};
    for (const RedisReply& key : keys.elements) argv.push_back(key.str);
    checked(source.command(argv), "MIGRATE");
  }
}

void RedisCluster::finish_migration(const SlotMigration& migration) {
  const std::vector<std::string> argv{"CLUSTER", "SETSLOT", std::to_string(migration.slot), "NODE",
                                      node_id(migration.target_port)};
  // The target first: once the source lets go, its clients are sent there.
  checked(node(migration.target_port).command(argv), "SETSLOT NODE on the target");
  checked(node(migration.source_port).command(argv), "SETSLOT NODE on the source");
  for (const int master : master_ports()) {
    if (master != migration.target_port && master != migration.source_port)
      checked(node(master).command(argv), "SETSLOT NODE");
  }
  await_healthy(kHealthyTimeout);
}

void RedisCluster::migrate_slot(int slot, int to_port) {
  const SlotMigration migration = begin_migration(slot, to_port);
  move_keys(migration);
  finish_migration(migration);
}

}  // namespace dlock_test
