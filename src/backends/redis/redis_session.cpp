#include "backends/redis/redis_session.hpp"

#include "backends/redis/eviction_policy.hpp"
#include "backends/redis/redis_held.hpp"

namespace dlock {

RedisSession::RedisSession(const ClientConfig& config, ClientStats& stats, bool server_answered)
    : config_(with_master_locator(config)),
      server_(config_.describe()),
      stats_(stats),
      router_(config_),
      subscriber_(config_, stats_, router_),
      keeper_(router_, config_),
      wait_heartbeat_(router_, config_),
      answered_(server_answered) {}

void RedisSession::start(std::function<void()> check_holds_now) {
  router_.on_reconnect(check_holds_now);
  if (config_.master_locator) follow_sentinel(std::move(check_holds_now));
}

void RedisSession::follow_sentinel(std::function<void()> check_holds_now) {
  config_.master_locator->on_move([this, check_holds_now = std::move(check_holds_now)] {
    ClientStats::count(stats_.failovers);
    subscriber_.reconnect();
    check_holds_now();
  });
  sentinel_watcher_ = std::make_unique<SentinelWatcher>(config_.master_locator, config_.command_timeout_ms);
}

void RedisSession::ping() {
  execute({},
          [&](Connection& connection) { connection.command({"PING"}).throw_if_error("PING " + server_); });
  answered_.store(true);
  warn_about_eviction_policy(*this);
}

int64_t RedisSession::run(const std::string& name, const std::function<int64_t(Connection&)>& call,
                          std::optional<Clock::time_point> once_before) {
  if (!once_before) return execute(name, call);
  ConnectionPool::Lease connection = router_.acquire(name, *once_before);
  const TimeLimit limit(*connection, *once_before, std::chrono::milliseconds(config_.command_timeout_ms));
  return call(*connection);
}

void RedisSession::release(const Hold& hold, const std::string& request_id, int64_t latch_ms,
                           std::optional<Clock::time_point> once_before) {
  run(
      hold.resource->name(),
      [&](Connection& connection) {
        return int64_t{redis_held(hold).release(connection, hold.grant.owner_field, request_id, latch_ms)};
      },
      once_before);
}

void RedisSession::throw_if_closed() const {
  if (closed_.load()) throw ClosedError("the client is closed");
}

void RedisSession::back_off(std::chrono::milliseconds delay) {
  std::unique_lock<std::mutex> lock(close_mutex_);
  closing_.wait_for(lock, delay, [&] { return closed_.load(); });
}

void RedisSession::begin_close() {
  {
    std::lock_guard<std::mutex> lock(close_mutex_);
    if (closed_.exchange(true)) return;
  }
  closing_.notify_all();
  if (sentinel_watcher_) sentinel_watcher_->stop();
  subscriber_.poke_all();
}

void RedisSession::close() {
  wait_heartbeat_.stop();
  subscriber_.stop();
  router_.close();
}

RedisSession& redis_session(ClientCore& core) {
  auto* session = dynamic_cast<RedisSession*>(&core.session());
  if (session == nullptr) {
    throw UnsupportedError(std::string("the ") + core.session().scheme() +
                           " backend does not serve this call: only redis does");
  }
  return *session;
}

}  // namespace dlock
