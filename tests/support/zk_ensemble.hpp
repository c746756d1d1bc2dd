#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "temp_dir.hpp"

namespace dlock_test {

// The java classpath the servers run with: $DLOCK_TEST_ZOOKEEPER_CLASSPATH, else
// Debian's zookeeper package (/usr/share/java/zookeeper.jar, whose manifest
// names its dependencies, plus slf4j-simple so the servers' logs say something).
std::string zookeeper_classpath();

struct ZkEnsembleConfig {
  // 1 (standalone) or 3 (a quorum of 3 QuorumPeerMain processes).
  std::size_t nodes = 3;
  // zoo.cfg lines after the defaults (later lines win).
  std::vector<std::string> extra_lines;
};

// ZooKeeper servers from Debian's `zookeeper` package, each a JVM
// (org.apache.zookeeper.server.quorum.QuorumPeerMain, -Xmx128m) on free
// loopback ports (client, quorum and election), with its data directory in a
// TempDir: tickTime=200, sessions of 400 to 4000 ms, four-letter words on, no
// admin server, container nodes checked every second. The constructor returns
// once `srvr` shows a leader (one node: standalone) and every node serves.
// Every JVM is killed in the destructor, and with the thread that started it
// (see ChildProcess): construct, restart() and destroy it on the test's main thread.
class ZkEnsemble {
 public:
  static constexpr int tick_time_ms = 200;
  static constexpr int min_session_timeout_ms = 400;
  static constexpr int max_session_timeout_ms = 4000;

  explicit ZkEnsemble(ZkEnsembleConfig config = {});
  ~ZkEnsemble();
  ZkEnsemble(const ZkEnsemble&) = delete;
  ZkEnsemble& operator=(const ZkEnsemble&) = delete;

  std::size_t size() const { return nodes_.size(); }
  // 127.0.0.1:<client port 1>,127.0.0.1:<client port 2>,... (zookeeper_init's host list).
  std::string connect_string() const;
  // 127.0.0.1:<client port of node `index`>: a session on that node alone.
  std::string address(std::size_t index) const;
  int client_port(std::size_t index) const;
  // The node's JVM (its process id stays valid until restart() or the destructor).
  pid_t pid(std::size_t index) const;
  bool running(std::size_t index);
  const std::string& log_path(std::size_t index) const;

  // The node that `srvr` calls leader (or standalone), waiting up to `timeout`
  // for one (after a kill9() of the leader, the new one). Throws when none is.
  std::size_t leader_index(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // What `srvr` says after "Mode: " (leader, follower, standalone); empty when
  // the node does not answer or does not serve (no quorum).
  std::string mode(std::size_t index);
  // A four-letter word's whole answer ("srvr", "stat", "mntr"); empty when the node does not answer.
  std::string four_letter_word(std::size_t index, const std::string& word);

  void kill9(std::size_t index);  // SIGKILL and reap: no goodbye to peers or clients
  // Starts the node again on its ports and data directory (after a kill9, or
  // killing it first), and waits until it serves again.
  void restart(std::size_t index);
  void pause(std::size_t index);   // SIGSTOP
  void resume(std::size_t index);  // SIGCONT

 private:
  struct Node {
    int client_port = 0;
    int quorum_port = 0;
    int election_port = 0;
    std::string dir;  // holds zoo.cfg, zookeeper.log and data/ (myid, version-2/)
    std::string log;
    std::unique_ptr<ChildProcess> process;
  };

  void pick_ports();
  void write_config(std::size_t index) const;
  void start(std::size_t index);
  // Whether one node leads and every running node serves; false at once when a node has exited.
  bool ready(bool& exited);
  std::string failure_detail() const;

  ZkEnsembleConfig config_;
  std::unique_ptr<TempDir> dir_;
  std::vector<Node> nodes_;
};

}  // namespace dlock_test
