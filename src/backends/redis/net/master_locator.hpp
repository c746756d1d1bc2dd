// Sentinel: which server is the master now. The sentinels are asked in turn
// (SENTINEL get-master-addr-by-name); a connection to the address they give
// counts only once ROLE says master. The answer is kept until something says
// the master moved: a refused or dead connection, a READONLY reply, ROLE
// saying replica, or +switch-master (the SentinelWatcher). Each master known
// gets a new generation; connections carry theirs, so the pool drops the ones
// made for an older master.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/url.hpp"

namespace dlock {

class MasterLocator {
 public:
  using Clock = std::chrono::steady_clock;

  // `config` is a redis-sentinel:// client's config.
  explicit MasterLocator(const ClientConfig& config);

  // A connection to the current master, its generation set: asks the
  // sentinels again (with a short back-off) until one names a server whose
  // ROLE is master, by `deadline`. Throws ConnectionError naming what went
  // wrong (RefusedConnectionError when every sentinel refused,
  // PermanentConnectionError when every sentinel that answered knows no
  // master of that name), AuthError.
  std::unique_ptr<Connection> connect(Clock::time_point deadline);

  // The master of `generation` failed us: the next connect() asks the sentinels.
  void suspect(uint64_t generation);
  // A sentinel names host:port as the master (`how` says how, for the log):
  // a new generation when it differs from the one known.
  void reported(const std::string& host, int port, const std::string& how);
  uint64_t generation() const;

  // Called, outside the locator's mutex, each time the master moved.
  void on_move(std::function<void()> listener);

  // A connection to a sentinel (its credentials, no database) and the
  // command that asks it for the master's address.
  std::unique_ptr<Connection> connect_sentinel(std::size_t index, Clock::time_point deadline) const;
  std::size_t sentinel_count() const { return config_.sentinel.sentinels.size(); }
  const std::string& master_name() const { return config_.sentinel.master_name; }
  // SENTINEL get-master-addr-by-name on `sentinel`: false when it knows no
  // such master. Throws what the connection throws.
  bool ask(Connection& sentinel, std::string& host, int& port) const;
  std::string sentinel_address(std::size_t index) const;  // host:port, for messages

 private:
  struct Known {
    std::string host;
    int port = 0;
    uint64_t generation = 0;  // 0: none known yet
    bool suspected = true;
  };

  Known current(Clock::time_point deadline);
  // Asks every sentinel in turn until one answers with an address.
  void resolve(Clock::time_point deadline);
  ClientConfig master_config(const Known& master) const;

  const ClientConfig config_;  // the sentinel settings; no locator of its own
  mutable std::mutex mutex_;
  Known known_;
  std::vector<std::function<void()>> listeners_;
};

// A connection for `config`: to the current master for a Sentinel config,
// else to the server it names.
std::unique_ptr<Connection> open_connection(const ClientConfig& config,
                                            MasterLocator::Clock::time_point deadline);

// Gives a redis-sentinel:// config its own MasterLocator (a no-op otherwise).
ClientConfig with_master_locator(ClientConfig config);

}  // namespace dlock
