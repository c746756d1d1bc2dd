// Where each command goes. A standalone server or Sentinel's current master
// has one connection pool. Cluster mode is found by asking the first seed
// that answers (CLUSTER SHARDS): a Cluster gets a slot map and a pool per
// master, and the commands on a key go to the master of its slot. The map is
// asked for again after a connection to a node fails (a failover may be under
// way) and after a MOVED, whose slot is moved at once.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/redis/net/connection_pool.hpp"
#include "backends/redis/net/slot_map.hpp"
#include "backends/redis/net/url.hpp"
#include "common/error.hpp"

namespace dlock {

class Router {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Router(ClientConfig config);

  // A pooled connection to the node that serves `key` (outside Cluster mode,
  // to the server, whatever the key). Throws what ConnectionPool::acquire()
  // and the first question to a seed throw.
  ConnectionPool::Lease acquire(std::string_view key, Clock::time_point deadline);
  // A pooled connection to where a MOVED or ASK points. MOVED moves the slot
  // in the map; ASK's connection sends ASKING before each of its commands.
  ConnectionPool::Lease follow(const RedirectError& redirect, Clock::time_point deadline);
  // A MOVED names the slot's new master: the map says so from now on.
  void moved(const RedirectError& redirect);
  // A node failed us: the map is asked for again before the next command.
  void suspect_map();

  // Commands on many keys, one pipeline per node: the indexes of `keys`
  // grouped by the pool of the node that serves them.
  struct Batch {
    ConnectionPool* pool;
    std::vector<std::size_t> items;
  };
  std::vector<Batch> batches(const std::vector<std::string_view>& keys, Clock::time_point deadline);
  // The pool of every master (the one pool outside Cluster mode): for
  // commands that must reach every node, such as SCAN.
  std::vector<ConnectionPool*> every_master(Clock::time_point deadline);

  // The node that serves `key`, for connections made outside the pools (the
  // subscriber's): its address ("" outside Cluster mode) and its config.
  struct Node {
    std::string address;
    ClientConfig config;
  };
  Node node_for(std::string_view key, Clock::time_point deadline);

  // A node answered the first question (standalone or Cluster): a refused
  // connection after it is a node restarting or failing over, worth retrying.
  bool answered() const;

  // Cluster mode on servers with sharded pub/sub (Redis/Valkey >= 7). Known
  // once a command has been routed.
  bool sharded_pubsub() const { return sharded_pubsub_.load(); }

  // Called after a pool makes a connection again following an outage.
  void on_reconnect(std::function<void()> listener);
  uint64_t reconnects() const;
  void close();

 private:
  enum class Mode { unknown, standalone, cluster };

  // Finds the mode (first use) or asks for the map again (when suspected).
  void refresh(Clock::time_point deadline);
  // Asks the nodes in turn: the first answer says standalone or gives the map.
  void ask_for_map(Clock::time_point deadline);
  // The master serving `slot`; TransientServerError (and the map suspected)
  // while none does. Under mutex_.
  const ServerAddress& master_of(int slot);
  ConnectionPool& pool_at(const ServerAddress& address);  // made on first use; under mutex_
  ClientConfig node_config(const ServerAddress& address) const;
  std::vector<ServerAddress> seeds() const;

  const ClientConfig config_;
  mutable std::mutex mutex_;
  std::mutex refresh_mutex_;  // one question for the map at a time
  Mode mode_ = Mode::unknown;
  bool map_suspected_ = false;
  bool answered_ = false;
  std::optional<SlotMap> map_;
  std::map<std::string, std::unique_ptr<ConnectionPool>> pools_;  // by host:port
  ConnectionPool* standalone_ = nullptr;
  ClientConfig standalone_config_;  // the server that answered (Sentinel: the locator's config)
  std::atomic<bool> sharded_pubsub_{false};
  std::function<void()> on_reconnect_;
  bool closed_ = false;
};

}  // namespace dlock
