#include "backends/redis/net/router.hpp"

#include <algorithm>

#include "backends/redis/net/key_slot.hpp"
#include "common/log.hpp"

namespace dlock {

Router::Router(ClientConfig config) : config_(std::move(config)) {
  // Sentinel names one master; a Unix socket is never a Cluster node.
  if (config_.sentinel.enabled() || config_.transport == ClientConfig::Transport::unix_socket) {
    mode_ = Mode::standalone;
    standalone_config_ = config_;
    auto pool = std::make_unique<ConnectionPool>(config_);
    standalone_ = pool.get();
    pools_.emplace("", std::move(pool));
  }
}

std::vector<ServerAddress> Router::seeds() const {
  if (!config_.seeds.empty()) return config_.seeds;
  return {ServerAddress{config_.host, config_.port}};
}

ClientConfig Router::node_config(const ServerAddress& address) const {
  ClientConfig node = config_;
  node.host = address.host;
  node.port = address.port;
  node.seeds.clear();
  return node;
}

ConnectionPool& Router::pool_at(const ServerAddress& address) {
  std::unique_ptr<ConnectionPool>& pool = pools_[host_and_port(address.host, address.port)];
  if (!pool) {
    pool = std::make_unique<ConnectionPool>(node_config(address));
    if (on_reconnect_) pool->on_reconnect(on_reconnect_);
    if (sharded_pubsub_.load()) pool->use_sharded_pubsub();
    if (closed_) pool->close();
  }
  return *pool;
}

void Router::refresh(Clock::time_point deadline) {
  bool first;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (mode_ == Mode::standalone || (mode_ == Mode::cluster && !map_suspected_)) return;
    first = mode_ == Mode::unknown;
  }
  // Once there is a map, a caller finding another asking goes on with the
  // map it has (a MOVED corrects it): none waits on a node that stalls.
  std::unique_lock<std::mutex> one_at_a_time(refresh_mutex_, std::defer_lock);
  if (first) {
    one_at_a_time.lock();
  } else if (!one_at_a_time.try_lock()) {
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (mode_ == Mode::standalone || (mode_ == Mode::cluster && !map_suspected_)) return;  // done meanwhile
  }
  ask_for_map(deadline);
}

void Router::ask_for_map(Clock::time_point deadline) {
  // The masters known, then the seeds; nodes whose connections are failing
  // (down, or stalled past a timeout) are asked last.
  std::vector<ServerAddress> candidates;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (map_) candidates = map_->masters();
    for (const ServerAddress& seed : seeds()) candidates.push_back(seed);
    std::stable_partition(candidates.begin(), candidates.end(),
                          [&](const ServerAddress& address) { return !pool_at(address).in_outage(); });
  }
  std::string last;
  std::size_t refused = 0;
  for (const ServerAddress& address : candidates) {
    try {
      ConnectionPool* pool;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        pool = &pool_at(address);
      }
      ConnectionPool::Lease connection = pool->acquire(deadline);
      std::optional<SlotMap> map = SlotMap::ask(*connection, address.host, config_.tls.enabled);
      std::unique_lock<std::mutex> lock(mutex_);
      answered_ = true;
      if (!map && mode_ == Mode::unknown) {
        mode_ = Mode::standalone;
        standalone_ = pool;
        standalone_config_ = node_config(address);
        return;
      }
      if (!map || map->masters().empty()) {
        last = host_and_port(address.host, address.port) +
               (map ? " knows no master" : " is not in Cluster mode");
        continue;
      }
      const bool first = mode_ == Mode::unknown;
      const std::string found = config_.describe() + " is a Redis Cluster of " +
                                std::to_string(map->masters().size()) + " master(s)" +
                                (map->sharded_pubsub() ? ", with sharded pub/sub" : "");
      map_ = std::move(map);
      mode_ = Mode::cluster;
      map_suspected_ = false;
      if (map_->sharded_pubsub() && !sharded_pubsub_.exchange(true)) {
        for (auto& [name, node_pool] : pools_) node_pool->use_sharded_pubsub();
      }
      lock.unlock();
      if (first && log::enabled(DLOCK_LOG_INFO)) log::emit(DLOCK_LOG_INFO, found);
      return;
    } catch (const PermanentConnectionError&) {
      throw;  // a TLS or address problem no other node will solve
    } catch (const RefusedConnectionError& error) {
      ++refused;
      last = error.what();
    } catch (const ConnectionError& error) {
      last = error.what();
    } catch (const ProtocolError& error) {
      last = error.what();
    }
  }
  const std::string message = "no node of " + config_.describe() + " answered: " + last;
  if (refused == candidates.size()) throw RefusedConnectionError(message);
  throw ConnectionError(message);
}

bool Router::answered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return answered_;
}

void Router::suspect_map() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (mode_ == Mode::cluster) map_suspected_ = true;
}

const ServerAddress& Router::master_of(int slot) {
  const ServerAddress* master = map_->master(slot);
  if (master == nullptr) {
    map_suspected_ = true;
    throw TransientServerError("no node of " + config_.describe() + " serves slot " + std::to_string(slot) +
                               " (a failover under way?)");
  }
  return *master;
}

ConnectionPool::Lease Router::acquire(std::string_view key, Clock::time_point deadline) {
  refresh(deadline);
  ConnectionPool* pool;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pool = mode_ == Mode::standalone ? standalone_ : &pool_at(master_of(key_slot(key)));
  }
  return pool->acquire(deadline);
}

void Router::moved(const RedirectError& redirect) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!redirect.ask && map_) map_->moved(redirect.slot, ServerAddress{redirect.host, redirect.port});
}

ConnectionPool::Lease Router::follow(const RedirectError& redirect, Clock::time_point deadline) {
  moved(redirect);
  ConnectionPool* pool;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pool = &pool_at(ServerAddress{redirect.host, redirect.port});
  }
  ConnectionPool::Lease connection = pool->acquire(deadline);
  if (redirect.ask) connection->set_asking(true);
  return connection;
}

std::vector<Router::Batch> Router::batches(const std::vector<std::string_view>& keys,
                                           Clock::time_point deadline) {
  refresh(deadline);
  std::vector<Batch> batches;
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ConnectionPool* pool = standalone_;
    if (mode_ == Mode::cluster) {
      // A slot no node serves (mid-failover) is asked of the first master: its
      // reply (MOVED, CLUSTERDOWN) is that key's error.
      const ServerAddress* master = map_->master(key_slot(keys[i]));
      pool = &pool_at(master != nullptr ? *master : map_->masters().front());
    }
    auto batch = std::find_if(batches.begin(), batches.end(), [&](const Batch& b) { return b.pool == pool; });
    if (batch == batches.end()) batch = batches.insert(batches.end(), Batch{pool, {}});
    batch->items.push_back(i);
  }
  return batches;
}

std::vector<ConnectionPool*> Router::every_master(Clock::time_point deadline) {
  refresh(deadline);
  std::lock_guard<std::mutex> lock(mutex_);
  if (mode_ == Mode::standalone) return {standalone_};
  std::vector<ConnectionPool*> pools;
  for (const ServerAddress& master : map_->masters()) pools.push_back(&pool_at(master));
  return pools;
}

Router::Node Router::node_for(std::string_view key, Clock::time_point deadline) {
  refresh(deadline);
  std::lock_guard<std::mutex> lock(mutex_);
  if (mode_ == Mode::standalone) return Node{"", standalone_config_};
  const ServerAddress& master = master_of(key_slot(key));
  return Node{host_and_port(master.host, master.port), node_config(master)};
}

void Router::on_reconnect(std::function<void()> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_reconnect_ = std::move(listener);
  for (auto& [name, pool] : pools_) pool->on_reconnect(on_reconnect_);
}

uint64_t Router::reconnects() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t total = 0;
  for (const auto& [name, pool] : pools_) total += pool->reconnects();
  return total;
}

void Router::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  for (auto& [name, pool] : pools_) pool->close();
}

}  // namespace dlock
