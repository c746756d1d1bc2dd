// A client core's session on Redis (core/backend_session.hpp): the router's
// connection pools, the subscriber, the keeper's pipelines, the waiters'
// queue heartbeat and, under Sentinel, the master's watcher. execute() is how
// the Redis resources make their round trips.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "backends/redis/net/router.hpp"
#include "backends/redis/net/sentinel_watcher.hpp"
#include "backends/redis/net/url.hpp"
#include "backends/redis/redis_keeper.hpp"
#include "backends/redis/subscriber.hpp"
#include "backends/redis/wait_heartbeat.hpp"
#include "common/error.hpp"
#include "common/log.hpp"
#include "core/backend_session.hpp"
#include "core/client_core.hpp"
#include "core/stats.hpp"

namespace dlock {

class RedisSession final : public BackendSession {
 public:
  // `server_answered`: the server answered this client before (a core built
  // anew in a fork()ed child), so a refused connection is retried from the start.
  RedisSession(const ClientConfig& config, ClientStats& stats, bool server_answered);

  const char* scheme() const override { return "redis"; }
  const std::string& describe() const override { return server_; }
  HoldKeeper& keeper() override { return keeper_; }
  void start(std::function<void()> check_holds_now) override;
  // PING, then a warning when the eviction policy may drop held locks.
  void ping() override;
  void release(const Hold& hold, const std::string& request_id, int64_t latch_ms,
               std::optional<Clock::time_point> once_before) override;
  uint64_t reconnects() const override { return router_.reconnects(); }
  void begin_close() override;
  // Once, after begin_close().
  void close() override;

  Router& router() { return router_; }
  Subscriber& subscriber() { return subscriber_; }
  WaitHeartbeat& wait_heartbeat() { return wait_heartbeat_; }

  // Runs `operation` on a pooled connection to the node that serves
  // `routing_key` (in a Cluster; any key of the resource, whose keys all share
  // its name's slot; empty for a command on no key). A connection that breaks is dropped and the operation
  // retried on a fresh one, and a transient server state (LOADING, BUSY...)
  // is retried too, until the command timeout has passed: each retry gets only
  // the time left, so the whole call ends within the command timeout. A MOVED
  // or ASK is followed at once. Operations must be idempotent when retried.
  template <typename Operation>
  auto execute(std::string_view routing_key, Operation&& operation)
      -> decltype(operation(std::declval<Connection&>())) {
    return with_retries([&](Clock::time_point deadline) { return router_.acquire(routing_key, deadline); },
                        std::forward<Operation>(operation));
  }
  // Runs `operation` on every master in turn (the one server outside a
  // Cluster), each with execute()'s retries: for commands such as SCAN that
  // must see every node.
  template <typename Operation>
  void execute_on_every_master(Operation&& operation) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(config_.command_timeout_ms);
    for (ConnectionPool* master : router_.every_master(deadline)) {
      with_retries([&](Clock::time_point until) { return master->acquire(until); }, operation);
    }
  }
  // `call` on the node of `name`: once before `once_before` on a connection
  // from the router (the watchdog, close), or with execute()'s retries.
  int64_t run(const std::string& name, const std::function<int64_t(Connection&)>& call,
              std::optional<Clock::time_point> once_before);

 private:
  // execute()'s loop: `acquire(deadline)` leases the connection for a try,
  // except after a MOVED or ASK, whose target is tried next.
  template <typename Acquire, typename Operation>
  auto with_retries(Acquire&& acquire, Operation&& operation)
      -> decltype(operation(std::declval<Connection&>()));
  void throw_if_closed() const;
  // Sleeps for a retry's back-off; returns early when the client closes.
  void back_off(std::chrono::milliseconds delay);
  // Sentinel: watches for the master's moves; on each one the waiters'
  // channels are subscribed on the new master and the holds checked at once.
  void follow_sentinel(std::function<void()> check_holds_now);

  const ClientConfig config_;
  const std::string server_;
  ClientStats& stats_;
  Router router_;
  Subscriber subscriber_;
  RedisKeeper keeper_;
  WaitHeartbeat wait_heartbeat_;
  std::unique_ptr<SentinelWatcher> sentinel_watcher_;  // Sentinel only
  std::atomic<bool> closed_{false};
  std::atomic<bool> answered_{false};  // the server answered once: a refusal may be a restart
  std::mutex close_mutex_;
  std::condition_variable closing_;
};

// The Redis session of `core`. Throws UnsupportedError naming the client's
// backend when it is another: what reaches Redis through this has no other
// backend's version yet.
RedisSession& redis_session(ClientCore& core);

template <typename Acquire, typename Operation>
auto RedisSession::with_retries(Acquire&& acquire, Operation&& operation)
    -> decltype(operation(std::declval<Connection&>())) {
  const auto timeout = std::chrono::milliseconds(config_.command_timeout_ms);
  const auto deadline = Clock::now() + timeout;
  auto delay = std::chrono::milliseconds(10);
  std::optional<RedirectError> redirect;
  for (bool first = true;; first = false) {
    throw_if_closed();
    try {
      ConnectionPool::Lease connection = redirect ? router_.follow(*redirect, deadline) : acquire(deadline);
      if (first) return operation(*connection);
      const TimeLimit limit(*connection, deadline, timeout);
      return operation(*connection);
    } catch (const PermanentConnectionError&) {
      throw;
    } catch (const RedirectError& error) {
      // Followed at once; a redirect that comes back again waits like a transient state.
      const bool again = redirect.has_value();
      redirect = error;
      if (!again) continue;
      if (Clock::now() + delay >= deadline) throw;
    } catch (const TransientServerError& error) {
      redirect.reset();
      router_.suspect_map();  // CLUSTERDOWN, TRYAGAIN: a failover or a migration under way
      if (Clock::now() + delay >= deadline) throw;
      ClientStats::count(stats_.transient_retries);
      if (log::enabled(DLOCK_LOG_DEBUG)) {
        log::emit(DLOCK_LOG_DEBUG, std::string(error.what()) + " from " + server_ + "; retrying in " +
                                       std::to_string(delay.count()) + " ms");
      }
    } catch (const RefusedConnectionError&) {
      redirect.reset();
      router_.suspect_map();
      if (!(answered_.load() || router_.answered()) || Clock::now() + delay >= deadline) throw;
    } catch (const ConnectionError&) {
      redirect.reset();
      router_.suspect_map();
      if (Clock::now() + delay >= deadline) throw;
    }
    back_off(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(250));
  }
}

}  // namespace dlock
