// A bounded pool of command connections, as redis-plus-plus's: connections
// are made lazily, no blocking socket I/O happens under the pool mutex (an
// idle connection taken is only peeked at, without waiting), and a broken
// connection, or one the server closed while it was idle, is dropped, never
// handed out again.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/url.hpp"

namespace dlock {

class ConnectionPool {
 public:
  using Clock = std::chrono::steady_clock;

  // Returns its connection to the pool when it goes out of scope.
  class Lease {
   public:
    Lease(ConnectionPool& pool, std::unique_ptr<Connection> connection)
        : pool_(&pool), connection_(std::move(connection)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (connection_) pool_->give_back(std::move(connection_));
    }
    Connection& operator*() const { return *connection_; }
    Connection* operator->() const { return connection_.get(); }

   private:
    ConnectionPool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  explicit ConnectionPool(ClientConfig config) : config_(std::move(config)) {}

  // An idle connection, or a new one while fewer than pool_size exist; waits
  // for one to come back until `deadline` (ConnectionError after it).
  // ClosedError once close() was called.
  Lease acquire(Clock::time_point deadline);

  // Drops idle connections; leases still out are dropped when given back.
  void close();

  // Called after a connection is made again following an outage (a server
  // restarted, a master moved): holds may be gone there. Set before use.
  void on_reconnect(std::function<void()> listener) { on_reconnect_ = std::move(listener); }

  // Cluster on Redis/Valkey >= 7: connections leased from now on say so
  // (Connection::sharded_pubsub()).
  void use_sharded_pubsub() { sharded_pubsub_.store(true); }

  // A connection broke or could not be made, and none has been made since.
  bool in_outage() const { return in_outage_.load(); }

  // Connections made again after one broke or a connect failed.
  uint64_t reconnects() const { return reconnects_.load(std::memory_order_relaxed); }

 private:
  void give_back(std::unique_ptr<Connection> connection);
  // Not broken, not a demoted master's, and (Sentinel) made for the current master.
  bool usable(const Connection& connection) const;
  std::unique_ptr<Connection> connect(Clock::time_point deadline);
  Lease lease(std::unique_ptr<Connection> connection);
  // An outage is logged once when it starts (a connection broke or could not
  // be made) and once when a connection is made again.
  void outage_began(const std::string& what);

  const ClientConfig config_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<Connection>> idle_;
  int open_count_ = 0;
  bool closed_ = false;
  std::atomic<bool> in_outage_{false};
  std::atomic<bool> connected_once_{false};  // an outage before it is a server never reached
  std::atomic<uint64_t> reconnects_{0};
  std::atomic<bool> sharded_pubsub_{false};
  std::function<void()> on_reconnect_;
};

}  // namespace dlock
