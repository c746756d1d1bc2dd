// The client's one background thread for held locks. It renews every
// watchdog-managed hold in one pipelined round trip per batch (holds due
// within the next sixth of the lease join the batch, so a renewal period
// costs one round trip per node whatever the number of locks: one in all
// outside a Cluster; each node's batch runs on its own, so a node that stalls
// delays only its own holds), and marks a hold lost
// when its renewal finds it gone or its local validity deadline passes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/redis/net/router.hpp"
#include "core/holds.hpp"
#include "core/pending_requests.hpp"
#include "core/stats.hpp"

namespace dlock {

class Watchdog {
 public:
  Watchdog(Router& router, Holds& holds, PendingRequests& requests, ClientStats& stats,
           const ClientConfig& config);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // A hold was added that needs attention at `due` (its renewal or its
  // deadline): starts the thread if needed, and wakes it if it planned to
  // sleep past `due`. Most grants need no wake-up at all.
  void nudge(Clock::time_point due);
  // Renews every watchdog hold at once, due or not (the master moved or the
  // server came back): a hold the server lacks is reported lost now, not at
  // its lease deadline.
  void renew_now();
  void stop();

  // How soon a failed renewal, or a release left pending, is tried again.
  std::chrono::milliseconds retry_delay() const { return retry_delay_; }

 private:
  void run();
  void renew(const std::vector<Hold>& due);
  // One node's pipeline, for `holds`; reports the holds found gone.
  void renew_on_node(ConnectionPool& pool, const std::vector<Hold>& holds, Clock::time_point sent_at);
  // A renewal answered with MOVED or ASK, sent again where it points.
  Reply renew_redirected(const Hold& hold, const RedirectError& redirect, Clock::time_point deadline);
  // Settles requests that failed ambiguously (core/pending_requests.hpp):
  // every primitive's, the lock's releases and withdrawals among them.
  void settle_requests(const std::vector<PendingRequest>& due);
  void give_up_requests(const std::vector<PendingRequest>& abandoned);
  // Runs `call` on a connection to the node of `name`, within `deadline`.
  template <typename Call>
  auto on_node_of(const std::string& name, Clock::time_point deadline, Call&& call);
  // A batch failed or went through: the first failure of a streak is logged,
  // and the first success after it.
  void renewals_failed(std::size_t holds, const std::string& what);
  void renewals_succeeded();
  void deliver(const std::vector<LostNotice>& notices);

  Router& router_;
  Holds& holds_;
  PendingRequests& requests_;
  ClientStats& stats_;
  const std::string server_;
  const std::chrono::milliseconds command_timeout_;
  const std::chrono::milliseconds batch_window_;
  const std::chrono::milliseconds retry_delay_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool nudged_ = false;
  bool renew_all_ = false;
  Clock::time_point planned_wake_ = Clock::time_point::max();  // max: awake, every nudge counts
  bool stopping_ = false;
  std::thread thread_;
  // Cluster: each node's batch still running, by its pool (thread only).
  std::map<ConnectionPool*, std::future<void>> in_flight_;
  std::mutex failing_mutex_;  // the batches of several nodes report at once
  bool failing_ = false;
  Clock::time_point failing_since_;
};

}  // namespace dlock
