#include "core/watchdog.hpp"

#include <algorithm>
#include <utility>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

// With nothing to watch the thread still wakes now and then; it is woken
// early by nudge() whenever a hold is added.
constexpr auto idle_wait = std::chrono::seconds(60);

}  // namespace

Watchdog::Watchdog(HoldKeeper& keeper, Holds& holds, PendingRequests& requests, ClientStats& stats,
                   std::string server, int64_t command_timeout_ms, int64_t watchdog_timeout_ms)
    : keeper_(keeper),
      holds_(holds),
      requests_(requests),
      stats_(stats),
      server_(std::move(server)),
      command_timeout_(command_timeout_ms),
      batch_window_(watchdog_timeout_ms / 6),
      retry_delay_(std::clamp<int64_t>(watchdog_timeout_ms / 10, 10, 1000)) {}

Watchdog::~Watchdog() {
  stop();
}

void Watchdog::nudge(Clock::time_point due) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    if (due >= planned_wake_) return;
    nudged_ = true;
  }
  wake_.notify_one();
}

void Watchdog::renew_now() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || !thread_.joinable()) return;  // no thread: nothing held yet
    renew_all_ = true;
    nudged_ = true;
  }
  wake_.notify_one();
}

void Watchdog::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    nudged_ = false;
    const bool renew_all = std::exchange(renew_all_, false);
    lock.unlock();
    const Clock::time_point now = Clock::now();
    deliver(holds_.expire(now));
    give_up_requests(requests_.abandon(now));
    const std::vector<PendingRequest> requests = requests_.due(now);
    if (!requests.empty()) settle_requests(requests);
    const std::vector<Hold> due =
        holds_.due_for_renewal(renew_all ? Clock::time_point::max() : now + batch_window_);
    if (!due.empty()) renew(due);
    const Clock::time_point next = requests_.next_due(holds_.next_deadline(Clock::now() + idle_wait));
    lock.lock();
    planned_wake_ = next;
    wake_.wait_until(lock, next, [&] { return stopping_ || nudged_; });
    planned_wake_ = Clock::time_point::max();
  }
  lock.unlock();
  keeper_.wait_for_renewals();  // each within its time limit
}

void Watchdog::renew(const std::vector<Hold>& due) {
  const Clock::time_point sent_at = Clock::now();
  // Not due again while their round trip is out: its report sets their next renewal.
  for (const Hold& hold : due) holds_.retry_renewal_at(hold, sent_at + command_timeout_);
  // A stalled server or a partition must not keep a round trip past the
  // first validity deadline it has to report (S6).
  const Clock::time_point deadline = holds_.earliest_validity_end(sent_at + command_timeout_);
  keeper_.renew(due, sent_at, deadline, [this](const HoldKeeper::Report& report) { apply(report); });
}

void Watchdog::apply(const HoldKeeper::Report& report) {
  std::vector<LostNotice> lost;
  for (const HoldKeeper::Renewal& renewal : report.answered) {
    if (renewal.still_owned) ClientStats::count(stats_.renewals);
    if (auto notice = holds_.renewed(renewal.hold, renewal.still_owned, report.sent_at))
      lost.push_back(*notice);
  }
  // Unanswered: tried again soon; the holds stay valid until their deadline,
  // when expire() reports them lost.
  for (const Hold& hold : report.unanswered) holds_.retry_renewal_at(hold, Clock::now() + retry_delay_);
  if (report.went_through) {
    ClientStats::count(stats_.renewal_round_trips);
    renewals_succeeded();
  } else if (report.failure) {
    renewals_failed(report.unanswered.size(), *report.failure);
  }
  deliver(lost);
  // A report from the keeper's own thread: the watchdog planned its sleep
  // before these holds' next renewal was known.
  if (std::this_thread::get_id() != thread_.get_id()) nudge(Clock::now());
}

void Watchdog::settle_requests(const std::vector<PendingRequest>& due) {
  for (const PendingRequest& request : due) {
    try {
      const Clock::time_point sent_at = Clock::now();
      const Clock::time_point deadline = std::min(sent_at + command_timeout_, request.give_up_at);
      requests_.settled(request, keeper_.settle(request, deadline), sent_at);
    } catch (const Error& error) {
      requests_.failed(request, Clock::now() + retry_delay_);
      if (log::enabled(DLOCK_LOG_DEBUG)) {
        log::emit(DLOCK_LOG_DEBUG, "watchdog: settling '" + request.what + "' on " + server_ +
                                       " failed again: " + error.what());
      }
    }
  }
}

void Watchdog::give_up_requests(const std::vector<PendingRequest>& abandoned) {
  for (const PendingRequest& request : abandoned) {
    if (!log::enabled(DLOCK_LOG_WARN)) continue;
    log::emit(DLOCK_LOG_WARN, std::string(request.finish ? "finishing '" : "withdrawing '") + request.what +
                                  "' on " + server_ + " never went through within the retry window");
  }
}

void Watchdog::renewals_failed(std::size_t holds, const std::string& what) {
  std::lock_guard<std::mutex> lock(failing_mutex_);
  if (failing_) {
    if (log::enabled(DLOCK_LOG_DEBUG)) log::emit(DLOCK_LOG_DEBUG, "watchdog: renewal still failing: " + what);
    return;
  }
  failing_ = true;
  failing_since_ = Clock::now();
  if (log::enabled(DLOCK_LOG_WARN)) {
    log::emit(DLOCK_LOG_WARN, "watchdog: renewing " + std::to_string(holds) + " lock(s) on " + server_ +
                                  " failed: " + what + "; retrying every " +
                                  std::to_string(retry_delay_.count()) + " ms until their leases run out");
  }
}

void Watchdog::renewals_succeeded() {
  std::lock_guard<std::mutex> lock(failing_mutex_);
  if (!failing_) return;
  failing_ = false;
  if (log::enabled(DLOCK_LOG_INFO)) {
    const auto failed_for =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - failing_since_);
    log::emit(DLOCK_LOG_INFO, "watchdog: renewal round trips to " + server_ + " go through again after " +
                                  std::to_string(failed_for.count()) + " ms of failures");
  }
}

void Watchdog::deliver(const std::vector<LostNotice>& notices) {
  for (const LostNotice& notice : notices) notice.deliver(stats_, server_);
}

}  // namespace dlock
