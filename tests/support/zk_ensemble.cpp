#include "zk_ensemble.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>

#include "redis_server.hpp"  // pick_free_port
#include "text_file.hpp"

namespace dlock_test {
namespace {

constexpr auto kStartupTimeout = std::chrono::seconds(30);
constexpr auto kPollInterval = std::chrono::milliseconds(50);
constexpr int kStartAttempts = 3;
constexpr const char* kDebianJar = "/usr/share/java/zookeeper.jar";
constexpr const char* kDebianLogger = "/usr/share/java/slf4j-simple.jar";

// One four-letter word on a fresh connection; the server answers and closes it.
// A second's timeout each way, so a paused server reads as no answer.
std::string ask(int port, const std::string& word) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return "";
  timeval timeout{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  std::string answer;
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      send(fd, word.data(), word.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(word.size())) {
    char buffer[4096];
    ssize_t got;
    while ((got = recv(fd, buffer, sizeof buffer, 0)) > 0)
      answer.append(buffer, static_cast<std::size_t>(got));
    if (got < 0) answer.clear();  // timed out: not the whole answer
  }
  close(fd);
  return answer;
}

bool leads(const std::string& mode) {
  return mode == "leader" || mode == "standalone";
}

}  // namespace

std::string zookeeper_classpath() {
  const char* configured = std::getenv("DLOCK_TEST_ZOOKEEPER_CLASSPATH");
  if (configured != nullptr && *configured != '\0') return configured;
  if (access(kDebianJar, R_OK) != 0) {
    throw std::runtime_error(std::string("no ZooKeeper server: ") + kDebianJar +
                             " is missing (Debian's zookeeper package; scripts/deps.sh all installs it)");
  }
  std::string classpath = kDebianJar;
  if (access(kDebianLogger, R_OK) == 0) classpath += std::string(":") + kDebianLogger;
  return classpath;
}

ZkEnsemble::ZkEnsemble(ZkEnsembleConfig config) : config_(std::move(config)) {
  if (config_.nodes != 1 && config_.nodes != 3) {
    throw std::invalid_argument("ZkEnsemble: 1 or 3 nodes, not " + std::to_string(config_.nodes));
  }
  std::string detail;
  // A port picked free may be taken before the JVM binds it: then that JVM
  // exits (or never joins), and the whole ensemble starts again on new ports.
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    nodes_.clear();
    dir_ = std::make_unique<TempDir>();
    nodes_.resize(config_.nodes);
    pick_ports();
    for (std::size_t i = 0; i < nodes_.size(); ++i) write_config(i);
    for (std::size_t i = 0; i < nodes_.size(); ++i) start(i);
    const auto deadline = std::chrono::steady_clock::now() + kStartupTimeout;
    bool exited = false;
    bool up = false;
    while (!(up = ready(exited)) && !exited && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(kPollInterval);
    }
    if (up) return;
    detail = failure_detail();
  }
  nodes_.clear();
  throw std::runtime_error("ZooKeeper (" + std::to_string(config_.nodes) + " nodes) did not start:" + detail);
}

ZkEnsemble::~ZkEnsemble() = default;

void ZkEnsemble::pick_ports() {
  std::set<int> taken;
  auto pick = [&] {
    for (;;) {
      const int port = pick_free_port();
      if (taken.insert(port).second) return port;
    }
  };
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    Node& node = nodes_[i];
    node.client_port = pick();
    node.quorum_port = pick();
    node.election_port = pick();
    node.dir = dir_->file("node" + std::to_string(i + 1));
    node.log = node.dir + "/zookeeper.log";
  }
}

void ZkEnsemble::write_config(std::size_t index) const {
  const Node& node = nodes_[index];
  const std::string data = node.dir + "/data";
  std::filesystem::create_directories(data);
  std::ofstream(data + "/myid") << index + 1 << "\n";
  // forceSync=no: throwaway data, and a kill -9 loses nothing the page cache holds.
  std::ofstream file(node.dir + "/zoo.cfg", std::ios::trunc);
  file << "tickTime=" << tick_time_ms << "\n"
       << "initLimit=10\n"
       << "syncLimit=5\n"
       << "dataDir=" << data << "\n"
       << "clientPort=" << node.client_port << "\n"
       << "clientPortAddress=127.0.0.1\n"
       << "admin.enableServer=false\n"
       << "4lw.commands.whitelist=*\n"
       << "minSessionTimeout=" << min_session_timeout_ms << "\n"
       << "maxSessionTimeout=" << max_session_timeout_ms << "\n"
       << "forceSync=no\n";
  if (nodes_.size() > 1) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      file << "server." << i + 1 << "=127.0.0.1:" << nodes_[i].quorum_port << ":" << nodes_[i].election_port
           << "\n";
    }
  }
  for (const std::string& line : config_.extra_lines) file << line << "\n";
}

void ZkEnsemble::start(std::size_t index) {
  Node& node = nodes_[index];
  // Small and quick to start (the servers do little work); empty container
  // nodes (the locks' parents) go within a second, not a minute.
  const std::vector<std::string> argv{"java",
                                      "-Xmx128m",
                                      "-XX:+UseSerialGC",
                                      "-XX:TieredStopAtLevel=1",
                                      "-XX:-UsePerfData",
                                      "-Djava.net.preferIPv4Stack=true",
                                      "-Dznode.container.checkIntervalMs=1000",
                                      "-Dorg.slf4j.simpleLogger.showDateTime=true",
                                      "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                                      "-cp",
                                      zookeeper_classpath(),
                                      "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                                      node.dir + "/zoo.cfg"};
  node.process = std::make_unique<ChildProcess>(argv, node.log);
}

bool ZkEnsemble::ready(bool& exited) {
  std::size_t leaders = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (!running(i)) {
      exited = true;
      return false;
    }
    const std::string node_mode = mode(i);
    if (node_mode.empty()) return false;
    if (leads(node_mode)) ++leaders;
  }
  return leaders == 1;
}

std::string ZkEnsemble::failure_detail() const {
  std::string detail;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    detail += "\n  node " + std::to_string(i) + " (client port " + std::to_string(nodes_[i].client_port) +
              ", " + nodes_[i].log + "):" + last_lines(nodes_[i].log, 6);
  }
  return detail;
}

std::string ZkEnsemble::connect_string() const {
  std::string hosts;
  for (std::size_t i = 0; i < nodes_.size(); ++i) hosts += (i == 0 ? "" : ",") + address(i);
  return hosts;
}

std::string ZkEnsemble::address(std::size_t index) const {
  return "127.0.0.1:" + std::to_string(client_port(index));
}

int ZkEnsemble::client_port(std::size_t index) const {
  return nodes_.at(index).client_port;
}

pid_t ZkEnsemble::pid(std::size_t index) const {
  return nodes_.at(index).process->pid();
}

bool ZkEnsemble::running(std::size_t index) {
  return nodes_.at(index).process->running();
}

const std::string& ZkEnsemble::log_path(std::size_t index) const {
  return nodes_.at(index).log;
}

std::string ZkEnsemble::four_letter_word(std::size_t index, const std::string& word) {
  return ask(client_port(index), word);
}

std::string ZkEnsemble::mode(std::size_t index) {
  const std::string answer = four_letter_word(index, "srvr");
  const std::string label = "Mode: ";
  const std::size_t start = answer.find(label);
  if (start == std::string::npos) return "";
  const std::size_t end = answer.find('\n', start);
  return answer.substr(start + label.size(), end == std::string::npos ? end : end - start - label.size());
}

std::size_t ZkEnsemble::leader_index(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (running(i) && leads(mode(i))) return i;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      throw std::runtime_error("no ZooKeeper node leads after " + std::to_string(timeout.count()) +
                               " ms:" + failure_detail());
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

void ZkEnsemble::kill9(std::size_t index) {
  nodes_.at(index).process->kill_and_reap();
}

void ZkEnsemble::restart(std::size_t index) {
  if (running(index)) kill9(index);
  start(index);
  const auto deadline = std::chrono::steady_clock::now() + kStartupTimeout;
  while (mode(index).empty()) {
    if (!running(index) || std::chrono::steady_clock::now() >= deadline) {
      throw std::runtime_error("ZooKeeper node " + std::to_string(index) +
                               " did not serve again:" + failure_detail());
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

void ZkEnsemble::pause(std::size_t index) {
  nodes_.at(index).process->signal(SIGSTOP);
}

void ZkEnsemble::resume(std::size_t index) {
  nodes_.at(index).process->signal(SIGCONT);
}

}  // namespace dlock_test
