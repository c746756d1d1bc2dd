#include "core/wait_heartbeat.hpp"

#include <deque>
#include <vector>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {

WaitHeartbeat::WaitHeartbeat(ConnectionPool& pool, const ClientConfig& config)
    : pool_(pool), command_timeout_(config.command_timeout_ms) {}

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
    leaving_.push_back({std::move(queue), std::move(field)});
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
  try {
    ConnectionPool::Lease connection = pool_.acquire(Clock::now() + command_timeout_);
    const TimeLimit limit(*connection, Clock::now() + command_timeout_, command_timeout_);
    for (const Leaving& waiter : leaving) waiter.queue->leave(*connection, waiter.field);
  } catch (const Error& error) {
    // The server drops these waiters once their heartbeat has stopped, and
    // a grant one of them never took when the grant's lease runs out.
    if (log::enabled(DLOCK_LOG_DEBUG)) {
      log::emit(DLOCK_LOG_DEBUG, std::string("leaving a fair lock's queue failed: ") + error.what());
    }
  }
}

void WaitHeartbeat::beat() {
  // One call per queue, naming every waiter of this client on it.
  struct Group {
    std::shared_ptr<const ServerQueue> queue;
    std::vector<Ticket> tickets;
    std::vector<std::string> fields;
  };
  std::map<const ServerQueue*, Group> groups;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [ticket, entry] : entries_) {
      Group& group = groups[entry.queue.get()];
      group.queue = entry.queue;
      group.tickets.push_back(ticket);
      group.fields.push_back(entry.field);
    }
  }
  std::vector<Ticket> to_signal;
  try {
    ConnectionPool::Lease connection = pool_.acquire(Clock::now() + command_timeout_);
    const TimeLimit limit(*connection, Clock::now() + command_timeout_, command_timeout_);
    // Every script is loaded before the pipeline starts (see the watchdog).
    std::vector<std::string> shas;
    for (const auto& [key, group] : groups)
      shas.push_back(group.queue->heartbeat_script().loaded_sha(*connection));
    std::deque<Script::Call> calls;
    std::size_t index = 0;
    for (const auto& [key, group] : groups) {
      Argv args = group.queue->heartbeat_args();
      args.insert(args.end(), group.fields.begin(), group.fields.end());
      calls.emplace_back(shas[index++], group.queue->heartbeat_keys(), args);
      connection->append(calls.back().argv());
    }
    std::vector<Reply> replies;
    for (std::size_t i = 0; i < groups.size(); ++i) replies.push_back(connection->read_reply());
    index = 0;
    for (const auto& [key, group] : groups) {
      const std::size_t i = index++;
      const Reply reply =
          group.queue->heartbeat_script().finish(*connection, calls[i], std::move(replies[i]));
      const std::string what = "heartbeat of the waiters queued on a fair lock";
      if (reply.array_size(what) != group.fields.size()) {
        throw ProtocolError(what + ": expected " + std::to_string(group.fields.size()) + " answers, got " +
                            reply.describe());
      }
      for (std::size_t j = 0; j < group.fields.size(); ++j) {
        if (reply.element(j).integer_is_one(what)) to_signal.push_back(group.tickets[j]);
      }
    }
  } catch (const Error& error) {
    // The next beat tries again; a waiter unseen for the whole liveness
    // window is dropped by the server and re-queues when it next tries.
    if (log::enabled(DLOCK_LOG_DEBUG))
      log::emit(DLOCK_LOG_DEBUG, std::string("heartbeat failed: ") + error.what());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Ticket ticket : to_signal) {
    const auto entry = entries_.find(ticket);
    if (entry != entries_.end()) entry->second.waiter->signal();
  }
}

}  // namespace dlock
