// Everything one client owns: its id, connection pool, subscriber, holds and
// watchdog. A fork()ed child builds a new one (see client.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
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
#include "core/async_runner.hpp"
#include "core/holds.hpp"
#include "core/pending_requests.hpp"
#include "core/stats.hpp"
#include "core/watchdog.hpp"

namespace dlock {

class ClientCore {
 public:
  // `server_answered`: the server answered this client before (a core built
  // anew in a fork()ed child), so a refused connection is retried from the start.
  explicit ClientCore(const ClientConfig& config, bool server_answered = false);
  ~ClientCore();
  ClientCore(const ClientCore&) = delete;
  ClientCore& operator=(const ClientCore&) = delete;

  const ClientConfig& config() const { return config_; }
  Holds& holds() { return holds_; }
  Subscriber& subscriber() { return subscriber_; }
  Watchdog& watchdog() { return watchdog_; }
  ClientStats& stats() { return stats_; }
  const ClientStats& stats() const { return stats_; }
  // Connections the pools had to make again (the subscriber counts its own in stats()).
  uint64_t pool_reconnects() const { return router_.reconnects(); }
  Router& router() { return router_; }
  AsyncRunner& async_runner() { return async_runner_; }
  WaitHeartbeat& wait_heartbeat() { return wait_heartbeat_; }

  // The hash field that names `owner` of this client: <client-uuid>:<owner>.
  std::string field(uint64_t owner) const;
  // A request id unique across clients, for release latches.
  std::string request_id();
  int64_t retry_window_ms() const { return config_.retry_window_ms(); }

  // A request that failed ambiguously: settled from now on, in the
  // background and by settle_pending() (core/pending_requests.hpp), until
  // confirmed or until its give_up_at (unset: the retry window) passes. The
  // watchdog's first try comes `first_try_after` from now.
  void settle_later(PendingRequest request,
                    std::chrono::milliseconds first_try_after = std::chrono::milliseconds(0));
  // `caller`'s request still pending (PendingRequests::peek), left as it is.
  std::optional<PendingRequest> pending(const std::string& caller) { return pending_requests_.peek(caller); }
  // Runs a request that must take effect once (a release, a count-down) and
  // returns its answer; when it fails ambiguously (ConnectionError, thrown
  // on) it is settled later under its id, never applied twice.
  int64_t execute_once(PendingRequest request);
  // The caller's next call settles `caller`'s pending request first; returns
  // it, settled, when there was one. Throws what settling throws (it stays
  // pending then).
  std::optional<SettledRequest> settle_pending(const std::string& caller);

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

  // Checks the server answers (and accepts the credentials); until it has,
  // a refused connection is reported at once instead of retried.
  void ping();

  void throw_if_closed() const;
  bool closed() const { return closed_.load(); }
  // Releases what the client holds, wakes its waiters (DLOCK_E_CLOSED) and
  // stops its threads. Idempotent.
  void close();

 private:
  // execute()'s loop: `acquire(deadline)` leases the connection for a try,
  // except after a MOVED or ASK, whose target is tried next.
  template <typename Acquire, typename Operation>
  auto with_retries(Acquire&& acquire, Operation&& operation)
      -> decltype(operation(std::declval<Connection&>()));
  // Sleeps for a retry's back-off; returns early when the client closes.
  void back_off(std::chrono::milliseconds delay);
  void release_all_best_effort();
  // Sentinel: watches for the master's moves; on each one the waiters'
  // channels are subscribed on the new master and the holds verified at once.
  void follow_sentinel();

  const ClientConfig config_;
  const std::string id_;
  std::atomic<uint64_t> next_request_{0};
  ClientStats stats_;
  Router router_;
  Holds holds_;
  PendingRequests pending_requests_;
  Subscriber subscriber_;
  RedisKeeper keeper_;  // before the watchdog, whose reports its round trips give
  Watchdog watchdog_;
  AsyncRunner async_runner_;
  std::unique_ptr<SentinelWatcher> sentinel_watcher_;  // Sentinel only
  WaitHeartbeat wait_heartbeat_;
  std::atomic<bool> closed_{false};
  std::atomic<bool> answered_{false};  // the server answered once: a refusal may be a restart
  std::mutex close_mutex_;
  std::condition_variable closing_;
};

template <typename Acquire, typename Operation>
auto ClientCore::with_retries(Acquire&& acquire, Operation&& operation)
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
        log::emit(DLOCK_LOG_DEBUG, std::string(error.what()) + " from " + config_.describe() +
                                       "; retrying in " + std::to_string(delay.count()) + " ms");
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
