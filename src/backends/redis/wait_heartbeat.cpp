#include "backends/redis/wait_heartbeat.hpp"

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {

const char* wait_liveness_lua() {
  static const std::string text = "local wait_liveness_ms = " + std::to_string(wait_liveness.count()) + "\n";
  return text.c_str();
}

WaitHeartbeat::WaitHeartbeat(Router& router, const ClientConfig& config)
    : router_(router), command_timeout_(config.command_timeout_ms) {}

WaitHeartbeat::~WaitHeartbeat() {
  stop();
}

WaitHeartbeat::Ticket WaitHeartbeat::add(std::shared_ptr<const ServerQueue> queue, std::string field,
                                         Waiter* waiter) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Ticket ticket = ++next_ticket_;
  entries_.emplace(ticket, Entry{std::move(queue), std::move(field), waiter});
  if (!stopping_ && !thread_.joinable()) thread_ = std::thread([this] { run(); });
  return ticket;
}

void WaitHeartbeat::remove(Ticket ticket) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.erase(ticket);
}

void WaitHeartbeat::leave(std::shared_ptr<const ServerQueue> queue, std::string field) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    // An owner that left, waited again and left again before the first leave
    // went out needs one leave, not two: a cancel storm grows no backlog.
    const bool queued = std::any_of(leaving_.begin(), leaving_.end(), [&](const Leaving& waiter) {
      return waiter.queue == queue && waiter.field == field;
    });
    if (!queued) leaving_.push_back({std::move(queue), std::move(field)});
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  wake_.notify_one();
}

void WaitHeartbeat::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void WaitHeartbeat::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  Clock::time_point next_beat = Clock::now();
  for (;;) {
    const std::vector<Leaving> leaving = std::move(leaving_);
    leaving_.clear();
    const bool stopping = stopping_;
    const bool due = !stopping && Clock::now() >= next_beat;
    const bool waiting = !entries_.empty();
    lock.unlock();
    if (!leaving.empty()) send_leaves(leaving);
    if (due && waiting) beat();
    lock.lock();
    if (stopping) return;
    if (due) next_beat = Clock::now() + wait_heartbeat_period;
    wake_.wait_until(lock, next_beat, [&] { return stopping_ || !leaving_.empty(); });
  }
}

void WaitHeartbeat::send_leaves(const std::vector<Leaving>& leaving) {
  const Clock::time_point deadline = Clock::now() + command_timeout_;
  for (const Leaving& waiter : leaving) {
    try {
      ConnectionPool::Lease connection = router_.acquire(waiter.queue->heartbeat_keys().front(), deadline);
      const TimeLimit limit(*connection, deadline, command_timeout_);
      waiter.queue->leave(*connection, waiter.field);
    } catch (const Error& error) {
      // The server drops this waiter once its heartbeat has stopped, and a
      // grant it never took when the grant's lease runs out.
      if (log::enabled(DLOCK_LOG_DEBUG)) {
        log::emit(DLOCK_LOG_DEBUG,
                  std::string("taking a waiter's entry off the server failed: ") + error.what());
      }
    }
  }
}

void WaitHeartbeat::beat() {
  // One call per queue, naming every waiter of this client on it.
  std::vector<Group> groups;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<const ServerQueue*, std::size_t> index_of;
    for (const auto& [ticket, entry] : entries_) {
      const auto [it, added] = index_of.try_emplace(entry.queue.get(), groups.size());
      if (added) groups.push_back(Group{entry.queue, {}, {}});
      groups[it->second].tickets.push_back(ticket);
      groups[it->second].fields.push_back(entry.field);
    }
  }
  // One pipeline per node (a queue's keys are on its name's node).
  std::vector<std::string_view> routing_keys;
  for (const Group& group : groups) routing_keys.push_back(group.queue->heartbeat_keys().front());
  std::vector<Ticket> to_signal;
  try {
    for (const Router::Batch& batch : router_.batches(routing_keys, Clock::now() + command_timeout_)) {
      try {
        beat_on_node(batch, groups, to_signal);
      } catch (const Error& error) {
        heartbeat_failed(error);
      }
    }
  } catch (const Error& error) {
    heartbeat_failed(error);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Ticket ticket : to_signal) {
    const auto entry = entries_.find(ticket);
    if (entry != entries_.end()) entry->second.waiter->signal();
  }
}

void WaitHeartbeat::heartbeat_failed(const Error& error) {
  // The next beat tries again; a waiter unseen for the whole liveness
  // window is dropped by the server and re-queues when it next tries.
  router_.suspect_map();
  if (log::enabled(DLOCK_LOG_DEBUG))
    log::emit(DLOCK_LOG_DEBUG, std::string("heartbeat failed: ") + error.what());
}

void WaitHeartbeat::beat_on_node(const Router::Batch& batch, const std::vector<Group>& groups,
                                 std::vector<Ticket>& to_signal) {
  ConnectionPool::Lease connection = batch.pool->acquire(Clock::now() + command_timeout_);
  const TimeLimit limit(*connection, Clock::now() + command_timeout_, command_timeout_);
  // Every script is loaded before the pipeline starts (see the watchdog).
  std::vector<std::string> shas;
  for (std::size_t i : batch.items)
    shas.push_back(groups[i].queue->heartbeat_script().loaded_sha(*connection));
  std::deque<Script::Call> calls;
  for (std::size_t n = 0; n < batch.items.size(); ++n) {
    const Group& group = groups[batch.items[n]];
    Argv args = group.queue->heartbeat_args();
    args.insert(args.end(), group.fields.begin(), group.fields.end());
    calls.emplace_back(shas[n], group.queue->heartbeat_keys(), args);
    connection->append(calls.back().argv());
  }
  std::vector<Reply> replies;
  for (std::size_t n = 0; n < batch.items.size(); ++n) replies.push_back(connection->read_reply());
  for (std::size_t n = 0; n < batch.items.size(); ++n) {
    const Group& group = groups[batch.items[n]];
    const Reply reply = group.queue->heartbeat_script().finish(*connection, calls[n], std::move(replies[n]));
    const std::string what =
        "heartbeat of the waiters on '" + std::string(group.queue->heartbeat_keys().front()) + "'";
    if (reply.array_size(what) != group.fields.size()) {
      throw ProtocolError(what + ": expected " + std::to_string(group.fields.size()) + " answers, got " +
                          reply.describe());
    }
    for (std::size_t j = 0; j < group.fields.size(); ++j) {
      if (reply.element(j).integer_is_one(what)) to_signal.push_back(group.tickets[j]);
    }
  }
}

}  // namespace dlock
