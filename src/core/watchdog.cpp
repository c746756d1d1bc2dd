#include "core/watchdog.hpp"

#include <algorithm>
#include <deque>
#include <utility>

#include "backends/redis/net/script.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

// With nothing to watch the thread still wakes now and then; it is woken
// early by nudge() whenever a hold is added.
constexpr auto idle_wait = std::chrono::seconds(60);

}  // namespace

Watchdog::Watchdog(Router& router, Holds& holds, PendingRequests& requests, ClientStats& stats,
                   const ClientConfig& config)
    : router_(router),
      holds_(holds),
      requests_(requests),
      stats_(stats),
      server_(config.describe()),
      command_timeout_(config.command_timeout_ms),
      batch_window_(config.watchdog_timeout_ms / 6),
      retry_delay_(std::clamp<int64_t>(config.watchdog_timeout_ms / 10, 10, 1000)) {}

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
  in_flight_.clear();  // waits for the nodes' batches still running (each within its time limit)
}

void Watchdog::renew(const std::vector<Hold>& due) {
  const Clock::time_point sent_at = Clock::now();
  std::vector<std::string_view> names;
  for (const Hold& hold : due) names.push_back(hold.resource->name());
  std::vector<Router::Batch> batches;
  try {
    batches = router_.batches(names, sent_at + command_timeout_);
  } catch (const Error& error) {
    for (const Hold& hold : due) holds_.retry_renewal_at(hold, Clock::now() + retry_delay_);
    renewals_failed(due.size(), error.what());
    return;
  }
  if (batches.size() == 1 && in_flight_.empty()) {
    renew_on_node(*batches.front().pool, due, sent_at);
    return;
  }
  for (const Router::Batch& batch : batches) {
    std::vector<Hold> holds;
    for (std::size_t i : batch.items) holds.push_back(due[i]);
    std::future<void>& previous = in_flight_[batch.pool];
    if (previous.valid() && previous.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      // That node has not answered the last batch yet: these wait for it.
      for (const Hold& hold : holds) holds_.retry_renewal_at(hold, Clock::now() + retry_delay_);
      continue;
    }
    // Not due again while the batch is out: its outcome sets their next renewal.
    for (const Hold& hold : holds) holds_.retry_renewal_at(hold, sent_at + command_timeout_);
    previous = std::async(std::launch::async, [this, pool = batch.pool, holds = std::move(holds), sent_at] {
      renew_on_node(*pool, holds, sent_at);
      nudge(Clock::now());  // the thread planned its sleep before these holds' next renewal was known
    });
  }
}

void Watchdog::renew_on_node(ConnectionPool& pool, const std::vector<Hold>& holds,
                             Clock::time_point sent_at) {
  std::vector<LostNotice> lost;
  try {
    ConnectionPool::Lease connection = pool.acquire(sent_at + command_timeout_);
    // A stalled server or a partition must not keep this batch past the
    // first validity deadline it has to report (S6): the batch gets no longer
    // than that, and a timed-out connection is dropped.
    const Clock::time_point deadline = holds_.earliest_validity_end(sent_at + command_timeout_);
    const TimeLimit limit(*connection, deadline, command_timeout_);
    // Every script is loaded before the pipeline starts: a SCRIPT LOAD in
    // the middle would read another command's reply.
    std::vector<std::string> shas;
    for (const Hold& hold : holds) shas.push_back(hold.resource->renewal_script().loaded_sha(*connection));
    std::deque<std::string> leases;
    std::deque<Script::Call> calls;
    for (std::size_t i = 0; i < holds.size(); ++i) {
      leases.push_back(std::to_string(holds[i].lease_ms));
      calls.emplace_back(shas[i], holds[i].resource->renewal_keys(), Argv{leases.back(), holds[i].field});
      connection->append(calls.back().argv());
    }
    std::vector<Reply> replies;
    for (std::size_t i = 0; i < holds.size(); ++i) replies.push_back(connection->read_reply());
    ClientStats::count(stats_.renewal_round_trips);
    // Only now, with no reply pending, may a NOSCRIPT be answered with EVAL.
    for (std::size_t i = 0; i < holds.size(); ++i) {
      const Hold& hold = holds[i];
      const std::string what = "renew '" + hold.resource->name() + "'";
      bool still_owned = false;
      try {
        try {
          still_owned = hold.resource->renewal_script()
                            .finish(*connection, calls[i], std::move(replies[i]))
                            .integer_is_one(what);
        } catch (const RedirectError& redirect) {
          still_owned = renew_redirected(hold, redirect, deadline).integer_is_one(what);
        }
      } catch (const ProtocolError&) {
        // The key is no longer a lock (e.g. replaced by another type): not ours.
      } catch (const Error&) {
        router_.suspect_map();  // a slot that moved or a node that failed: asked for again
        holds_.retry_renewal_at(hold, Clock::now() + retry_delay_);
        continue;
      }
      if (still_owned) ClientStats::count(stats_.renewals);
      if (auto notice = holds_.renewed(hold, still_owned, sent_at)) lost.push_back(*notice);
    }
    renewals_succeeded();
  } catch (const Error& error) {
    // Redis unreachable: try again soon; the holds stay valid until their
    // deadline, when expire() reports them lost.
    router_.suspect_map();
    for (const Hold& hold : holds) holds_.retry_renewal_at(hold, Clock::now() + retry_delay_);
    renewals_failed(holds.size(), error.what());
  }
  deliver(lost);
}

Reply Watchdog::renew_redirected(const Hold& hold, const RedirectError& redirect,
                                 Clock::time_point deadline) {
  ConnectionPool::Lease connection = router_.follow(redirect, deadline);
  const TimeLimit limit(*connection, deadline, command_timeout_);
  const std::string lease = std::to_string(hold.lease_ms);
  return hold.resource->renewal_script().run(*connection, hold.resource->renewal_keys(), {lease, hold.field});
}

template <typename Call>
auto Watchdog::on_node_of(const std::string& name, Clock::time_point deadline, Call&& call) {
  ConnectionPool::Lease connection = router_.acquire(name, deadline);
  const TimeLimit limit(*connection, deadline, command_timeout_);
  return call(*connection);
}

void Watchdog::settle_requests(const std::vector<PendingRequest>& due) {
  for (const PendingRequest& request : due) {
    try {
      const Clock::time_point sent_at = Clock::now();
      const Clock::time_point deadline = std::min(sent_at + command_timeout_, request.give_up_at);
      requests_.settled(request, on_node_of(request.name, deadline, request.settle), sent_at);
    } catch (const Error& error) {
      router_.suspect_map();
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
