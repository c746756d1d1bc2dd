// Everything one client owns: its id, its session on the backend (its
// connections and threads there), holds and watchdog. A fork()ed child builds
// a new one (see client.hpp).
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

#include "backends/redis/net/url.hpp"
#include "common/error.hpp"
#include "core/async_runner.hpp"
#include "core/backend_session.hpp"
#include "core/holds.hpp"
#include "core/pending_requests.hpp"
#include "core/stats.hpp"
#include "core/watchdog.hpp"

namespace dlock {

// Builds a core's session on its backend: `server_answered` as ClientCore's.
using SessionFactory =
    std::function<std::unique_ptr<BackendSession>(const ClientConfig&, ClientStats&, bool server_answered)>;

class ClientCore {
 public:
  // `server_answered`: the server answered this client before (a core built
  // anew in a fork()ed child), so a refused connection is retried from the start.
  ClientCore(const ClientConfig& config, const SessionFactory& open_session, bool server_answered = false);
  ~ClientCore();
  ClientCore(const ClientCore&) = delete;
  ClientCore& operator=(const ClientCore&) = delete;

  const ClientConfig& config() const { return config_; }
  BackendSession& session() { return *session_; }
  const BackendSession& session() const { return *session_; }
  // Where the server is, for messages.
  const std::string& describe() const { return session_->describe(); }
  Holds& holds() { return holds_; }
  Watchdog& watchdog() { return watchdog_; }
  ClientStats& stats() { return stats_; }
  const ClientStats& stats() const { return stats_; }
  AsyncRunner& async_runner() { return async_runner_; }

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

  // Checks the server answers (and accepts the credentials).
  void ping() { session_->ping(); }

  void throw_if_closed() const;
  bool closed() const { return closed_.load(); }
  // Releases what the client holds, wakes its waiters (DLOCK_E_CLOSED) and
  // stops its threads. Idempotent.
  void close();

 private:
  void release_all_best_effort();
  // Sets the config's watchdog lease to the session's (BackendSession::
  // watchdog_lease_ms) and returns it: the watchdog is built with it.
  int64_t fit_watchdog_lease();

  ClientConfig config_;  // changed once, by fit_watchdog_lease()
  const std::string id_;
  std::atomic<uint64_t> next_request_{0};
  ClientStats stats_;
  Holds holds_;
  PendingRequests pending_requests_;
  std::unique_ptr<BackendSession>
      session_;  // before the watchdog, whose reports its keeper's round trips give
  Watchdog watchdog_;
  AsyncRunner async_runner_;
  std::atomic<bool> closed_{false};
  std::mutex close_mutex_;
};

}  // namespace dlock
