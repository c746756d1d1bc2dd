#include "redis/connection_pool.hpp"

#include "common/error.hpp"

namespace dlock {

ConnectionPool::Lease ConnectionPool::acquire(Clock::time_point deadline) {
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
    if (!idle_.empty()) {
      std::unique_ptr<Connection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(connection));
    }
    ++open_count_;  // reserve the slot, then connect outside the mutex
  }
  try {
    return Lease(*this, std::make_unique<Connection>(config_, deadline));
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    --open_count_;
    returned_.notify_one();
    throw;
  }
}

void ConnectionPool::give_back(std::unique_ptr<Connection> connection) {
  std::unique_ptr<Connection> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (connection->broken() || closed_) {
      dropped = std::move(connection);  // closed below, outside the mutex
      --open_count_;
    } else {
      idle_.push_back(std::move(connection));
    }
  }
  returned_.notify_one();
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
