#include "backends/redis/net/connection_pool.hpp"

#include "backends/redis/net/master_locator.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {

bool ConnectionPool::usable(const Connection& connection) const {
  if (connection.broken() || connection.demoted()) return false;
  return !config_.master_locator || connection.generation() == config_.master_locator->generation();
}

ConnectionPool::Lease ConnectionPool::acquire(Clock::time_point deadline) {
  // An old master's, or closed by the server: closed outside the mutex.
  std::vector<std::unique_ptr<Connection>> stale;
  std::unique_ptr<Connection> idle;
  bool server_closed = false;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    const bool available = returned_.wait_until(
        lock, deadline, [&] { return closed_ || !idle_.empty() || open_count_ < config_.pool_size; });
    if (closed_) {
      throw ClosedError("the client is closed");
    }
    if (!available) {
      throw ConnectionError("no pooled connection became free within the command timeout (pool_size " +
                            std::to_string(config_.pool_size) + ")");
    }
    while (!idle_.empty() && !idle) {
      std::unique_ptr<Connection> connection = std::move(idle_.back());
      idle_.pop_back();
      // One the server closed while it sat idle is dropped here, not tried:
      // after a restart every idle connection is closed, and trying each
      // would cost a failure and a back-off apiece (RedisSession::with_retries).
      const bool kept = usable(*connection);
      const bool closed = kept && connection->closed_by_server();
      server_closed = server_closed || closed;
      if (kept && !closed) {
        idle = std::move(connection);
      } else {
        stale.push_back(std::move(connection));
        --open_count_;
      }
    }
    if (!idle) ++open_count_;  // reserve the slot, then connect outside the mutex
  }
  // The server closing connections is an outage as a command failing on one
  // is: warned of once, and the next connection made is a reconnection.
  if (server_closed) outage_began("the server closed the connection");
  if (idle) return lease(std::move(idle));
  try {
    return lease(connect(deadline));
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    --open_count_;
    returned_.notify_one();
    throw;
  }
}

ConnectionPool::Lease ConnectionPool::lease(std::unique_ptr<Connection> connection) {
  connection->set_sharded_pubsub(sharded_pubsub_.load());
  return Lease(*this, std::move(connection));
}

std::unique_ptr<Connection> ConnectionPool::connect(Clock::time_point deadline) {
  std::unique_ptr<Connection> connection;
  try {
    connection = open_connection(config_, deadline);
  } catch (const ConnectionError& error) {
    outage_began(error.what());
    throw;
  }
  const bool first = !connected_once_.exchange(true);
  if (in_outage_.exchange(false)) {
    if (!first) reconnects_.fetch_add(1, std::memory_order_relaxed);
    if (log::enabled(DLOCK_LOG_INFO)) {
      log::emit(DLOCK_LOG_INFO, "connected to " + config_.describe() + (first ? "" : " again"));
    }
    if (!first && on_reconnect_) on_reconnect_();
  }
  return connection;
}

void ConnectionPool::outage_began(const std::string& what) {
  if (in_outage_.exchange(true)) return;
  if (log::enabled(DLOCK_LOG_WARN)) {
    // Before the first connection there is nothing to lose: the server cannot be reached.
    const std::string lost = connected_once_.load() ? "lost the connection to " : "cannot connect to ";
    log::emit(DLOCK_LOG_WARN,
              lost + config_.describe() + ": " + what + "; commands are retried on new connections");
  }
}

void ConnectionPool::give_back(std::unique_ptr<Connection> connection) {
  std::unique_ptr<Connection> dropped;
  bool closing;
  connection->set_asking(false);  // an ASK redirects one operation only
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing = closed_;
    if (connection->demoted() && config_.master_locator) {
      config_.master_locator->suspect(connection->generation());
    }
    if (!usable(*connection) || closed_) {
      dropped = std::move(connection);  // closed below, outside the mutex
      --open_count_;
    } else {
      idle_.push_back(std::move(connection));
    }
  }
  returned_.notify_one();
  if (dropped && !closing && dropped->broken()) outage_began(dropped->failure());
  if (dropped && !closing && dropped->demoted()) outage_began("the server is a replica now (READONLY)");
}

void ConnectionPool::close() {
  std::vector<std::unique_ptr<Connection>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    dropped.swap(idle_);
    open_count_ -= static_cast<int>(dropped.size());
  }
  returned_.notify_all();
}

}  // namespace dlock
