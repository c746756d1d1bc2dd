// The client's one background thread for held locks: the watchdog's
// backend-neutral half. It renews every watchdog-managed hold through the
// backend's keeper (core/hold_keeper.hpp) in batches (holds due within the
// next sixth of the lease join the batch, so a renewal period costs the
// keeper's fewest round trips whatever the number of locks), marks a hold
// lost when its renewal finds it gone or its local validity deadline passes,
// and retries the requests left pending.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/hold_keeper.hpp"
#include "core/holds.hpp"
#include "core/pending_requests.hpp"
#include "core/stats.hpp"

namespace dlock {

class Watchdog {
 public:
  // `server` names where the holds are, for the log; a watchdog lease is
  // `watchdog_timeout_ms`.
  Watchdog(HoldKeeper& keeper, Holds& holds, PendingRequests& requests, ClientStats& stats,
           std::string server, int64_t command_timeout_ms, int64_t watchdog_timeout_ms);
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
  // Applies what one of the keeper's round trips found; may run on the
  // keeper's threads, several at once.
  void apply(const HoldKeeper::Report& report);
  // Settles requests that failed ambiguously (core/pending_requests.hpp):
  // every primitive's, the lock's releases and withdrawals among them.
  void settle_requests(const std::vector<PendingRequest>& due);
  void give_up_requests(const std::vector<PendingRequest>& abandoned);
  // A batch failed or went through: the first failure of a streak is logged,
  // and the first success after it.
  void renewals_failed(std::size_t holds, const std::string& what);
  void renewals_succeeded();
  void deliver(const std::vector<LostNotice>& notices);

  HoldKeeper& keeper_;
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
  std::mutex failing_mutex_;  // the keeper's round trips report at once
  bool failing_ = false;
  Clock::time_point failing_since_;
};

}  // namespace dlock
