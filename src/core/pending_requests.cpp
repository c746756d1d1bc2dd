#include "core/pending_requests.hpp"

#include <algorithm>
#include <utility>

namespace dlock {

void PendingRequests::add(PendingRequest request, Clock::time_point due) {
  std::lock_guard<std::mutex> lock(mutex_);
  request.serial = ++next_serial_;
  std::string caller = request.caller;
  entries_[std::move(caller)] = Entry{std::move(request), due, false, std::nullopt, nullptr};
}

std::optional<PendingRequest> PendingRequests::peek(const std::string& caller) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(caller);
  if (it == entries_.end() || it->second.answer) return std::nullopt;
  return it->second.request;
}

std::vector<PendingRequest> PendingRequests::take_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PendingRequest> all;
  for (auto& [caller, entry] : entries_) {
    if (!entry.answer) all.push_back(std::move(entry.request));
  }
  entries_.clear();
  return all;
}

std::optional<SettledRequest> PendingRequests::settle_for(const std::string& caller,
                                                          const std::function<int64_t(const PendingRequest&)>& run) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = entries_.end();
  released_.wait(lock, [&] {
    it = entries_.find(caller);
    return it == entries_.end() || !it->second.claimed;
  });
  if (it == entries_.end()) return std::nullopt;
  Entry& entry = it->second;
  // Its window is over: the server's record is gone, and this call is a new
  // one (the watchdog forgets it, with a WARN if it never went through).
  if (entry.request.give_up_at <= Clock::now()) return std::nullopt;
  SettledRequest settled{entry.request.finish, entry.request.what, 0, nullptr};
  if (entry.answer) {
    settled.answer = *entry.answer;
    settled.error = entry.error;
    entries_.erase(it);
    return settled;
  }
  entry.claimed = true;
  const PendingRequest request = entry.request;
  lock.unlock();
  const Clock::time_point sent_at = Clock::now();
  try {
    settled.answer = run(request);
  } catch (...) {
    lock.lock();
    if (Entry* current = find(request)) current->claimed = false;
    lock.unlock();
    released_.notify_all();
    throw;
  }
  if (request.error_for) settled.error = request.error_for(settled.answer, sent_at);
  lock.lock();
  if (find(request) != nullptr) entries_.erase(caller);
  lock.unlock();
  released_.notify_all();
  if (request.on_answer) request.on_answer(settled.answer, sent_at);
  return settled;
}

std::vector<PendingRequest> PendingRequests::due(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PendingRequest> due;
  for (auto& [caller, entry] : entries_) {
    if (entry.claimed || entry.answer || entry.retry_at > now || entry.request.give_up_at <= now) continue;
    entry.claimed = true;
    due.push_back(entry.request);
  }
  return due;
}

std::vector<PendingRequest> PendingRequests::abandon(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PendingRequest> abandoned;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.claimed || it->second.request.give_up_at > now) {
      ++it;
      continue;
    }
    if (!it->second.answer) abandoned.push_back(std::move(it->second.request));
    it = entries_.erase(it);
  }
  return abandoned;
}

void PendingRequests::settled(const PendingRequest& request, int64_t answer, Clock::time_point sent_at) {
  const std::exception_ptr error = request.error_for ? request.error_for(answer, sent_at) : nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Entry* entry = find(request)) {
      entry->claimed = false;
      // A withdrawal is over; a finished request waits for its caller's retry.
      if (request.finish) {
        entry->answer = answer;
        entry->error = error;
      } else {
        entries_.erase(request.caller);
      }
    }
  }
  released_.notify_all();
  if (request.on_answer) request.on_answer(answer, sent_at);
}

void PendingRequests::failed(const PendingRequest& request, Clock::time_point retry_at) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry* entry = find(request);
    if (entry == nullptr) return;
    entry->claimed = false;
    entry->retry_at = retry_at;
  }
  released_.notify_all();
}

PendingRequests::Entry* PendingRequests::find(const PendingRequest& request) {
  const auto it = entries_.find(request.caller);
  if (it == entries_.end() || it->second.request.serial != request.serial) return nullptr;
  return &it->second;
}

Clock::time_point PendingRequests::next_due(Clock::time_point fallback) {
  std::lock_guard<std::mutex> lock(mutex_);
  Clock::time_point next = fallback;
  for (const auto& [caller, entry] : entries_) {
    if (entry.claimed) continue;  // its claim ends with a new retry time, or with it
    // A settled one is only forgotten at the end of its window.
    next = std::min(next, entry.answer ? entry.request.give_up_at : entry.retry_at);
  }
  return next;
}

}  // namespace dlock
