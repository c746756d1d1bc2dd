#include "backends/redis/net/master_locator.hpp"

#include <algorithm>
#include <thread>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

constexpr auto first_retry_delay = std::chrono::milliseconds(20);
constexpr auto longest_retry_delay = std::chrono::milliseconds(200);

// ROLE's first element: "master", "slave" or "sentinel".
std::string role_of(Connection& connection) {
  const Reply reply = connection.command({"ROLE"});
  if (reply.array_size("ROLE") == 0) throw ProtocolError("ROLE: an empty reply");
  return std::string(reply.element(0).text("ROLE"));
}

}  // namespace

MasterLocator::MasterLocator(const ClientConfig& config) : config_(config) {}

uint64_t MasterLocator::generation() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return known_.generation;
}

void MasterLocator::on_move(std::function<void()> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  listeners_.push_back(std::move(listener));
}

void MasterLocator::suspect(uint64_t generation) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (known_.generation == generation) known_.suspected = true;
}

void MasterLocator::reported(const std::string& host, int port, const std::string& how) {
  std::vector<std::function<void()>> listeners;
  std::string from;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (known_.generation != 0 && known_.host == host && known_.port == port) {
      known_.suspected = false;
      return;
    }
    from = known_.generation == 0 ? "" : host_and_port(known_.host, known_.port);
    known_ = Known{host, port, known_.generation + 1, false};
    if (!from.empty()) listeners = listeners_;
  }
  if (from.empty()) return;  // the first master found: nothing moved
  if (log::enabled(DLOCK_LOG_WARN)) {
    log::emit(DLOCK_LOG_WARN, "failover: master '" + master_name() + "' moved from " + from + " to " +
                                  host_and_port(host, port) + " (" + how + "); following it");
  }
  for (const auto& listener : listeners) listener();
}

std::unique_ptr<Connection> MasterLocator::connect_sentinel(std::size_t index,
                                                            Clock::time_point deadline) const {
  ClientConfig sentinel = config_;
  sentinel.sentinel = {};
  sentinel.master_locator.reset();
  sentinel.host = config_.sentinel.sentinels[index].host;
  sentinel.port = config_.sentinel.sentinels[index].port;
  sentinel.user = config_.sentinel.user;
  sentinel.password = config_.sentinel.password;
  sentinel.db = 0;
  return std::make_unique<Connection>(sentinel, deadline);
}

bool MasterLocator::ask(Connection& sentinel, std::string& host, int& port) const {
  const Reply reply = sentinel.command({"SENTINEL", "get-master-addr-by-name", master_name()});
  const std::string what = "SENTINEL get-master-addr-by-name " + master_name();
  if (reply.is_nil()) return false;
  if (reply.array_size(what) != 2)
    throw ProtocolError(what + ": expected 2 elements, got " + reply.describe());
  host = std::string(reply.element(0).text(what));
  const std::string port_text(reply.element(1).text(what));
  try {
    port = std::stoi(port_text);
  } catch (const std::exception&) {
    throw ProtocolError(what + ": the port is not a number: " + reply.element(1).describe());
  }
  return true;
}

void MasterLocator::resolve(Clock::time_point deadline) {
  std::string last;
  std::size_t refused = 0;
  std::size_t unknown = 0;
  for (std::size_t i = 0; i < sentinel_count(); ++i) {
    try {
      const std::unique_ptr<Connection> sentinel = connect_sentinel(i, deadline);
      std::string host;
      int port = 0;
      if (ask(*sentinel, host, port)) {
        reported(host, port, "named by sentinel " + sentinel_address(i));
        return;
      }
      ++unknown;
      last = "sentinel " + sentinel_address(i) + " knows no master named '" + master_name() + "'";
    } catch (const RefusedConnectionError& error) {
      ++refused;
      last = error.what();
    } catch (const ConnectionError& error) {
      last = error.what();
    } catch (const ProtocolError& error) {
      last = error.what();
    }
  }
  const std::string message = "no sentinel of " + config_.describe() + " named the master: " + last;
  if (unknown > 0 && unknown + refused == sentinel_count()) throw PermanentConnectionError(message);
  if (refused == sentinel_count()) throw RefusedConnectionError(message);
  throw ConnectionError(message);
}

std::string MasterLocator::sentinel_address(std::size_t index) const {
  return host_and_port(config_.sentinel.sentinels[index].host, config_.sentinel.sentinels[index].port);
}

MasterLocator::Known MasterLocator::current(Clock::time_point deadline) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!known_.suspected) return known_;
  }
  resolve(deadline);
  std::lock_guard<std::mutex> lock(mutex_);
  return known_;
}

ClientConfig MasterLocator::master_config(const Known& master) const {
  ClientConfig plain = config_;
  plain.sentinel = {};
  plain.master_locator.reset();
  plain.host = master.host;
  plain.port = master.port;
  return plain;
}

std::unique_ptr<Connection> MasterLocator::connect(Clock::time_point deadline) {
  auto delay = first_retry_delay;
  for (;;) {
    const Known master = current(deadline);
    std::string failure;
    try {
      auto connection = std::make_unique<Connection>(master_config(master), deadline);
      const std::string role = role_of(*connection);
      if (role == "master") {
        connection->set_generation(master.generation);
        return connection;
      }
      failure = host_and_port(master.host, master.port) + " is a " + role + ", not the master of '" +
                master_name() + "' (a failover under way)";
    } catch (const ConnectionError& error) {
      failure = error.what();
    }
    suspect(master.generation);
    if (Clock::now() + delay >= deadline) {
      throw ConnectionError("no master of " + config_.describe() + " answered: " + failure);
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, longest_retry_delay);
  }
}

std::unique_ptr<Connection> open_connection(const ClientConfig& config,
                                            MasterLocator::Clock::time_point deadline) {
  if (config.master_locator) return config.master_locator->connect(deadline);
  return std::make_unique<Connection>(config, deadline);
}

ClientConfig with_master_locator(ClientConfig config) {
  if (config.sentinel.enabled()) config.master_locator = std::make_shared<MasterLocator>(config);
  return config;
}

}  // namespace dlock
