#include "core/holds.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
LostNotice LostNotice::of(const Hold& hold, const char* how) {
  return {hold.on_lost, hold.resource->name(), hold.owner, hold.grant.token, hold.granted_at,
          how,          hold.expired,           hold.lease_ms};
}

void LostNotice::deliver(ClientStats& stats, const std::string& server) const {
  ClientStats::count(expiry ? stats.expiries : stats.locks_lost);
  const int level = expiry ? DLOCK_LOG_INFO : DLOCK_LOG_WARN;
  if (log::enabled(level)) {
    const auto held = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - granted_at);
    const std::string ending =
        expiry ? " expired after " + std::to_string(held.count()) + " ms held (fencing token " +
                     std::to_string(token) + "): its fixed lease of " + std::to_string(lease_ms) +
                     " ms ran out as asked"
               : " lost after " + std::to_string(held.count()) + " ms held (fencing token " +
                     std::to_string(token) + "): " + how;
    log::emit(level, "lock '" + name + "' on " + server + ending);
  }
  if (on_lost) on_lost->call(name, owner, token);
}

void throw_ended(const Hold& hold, const std::string& what, const std::string& loss) {
  if (!hold.expired) throw LostError(what + " " + loss);
  throw ExpiredError(what + " expired: its fixed lease of " + std::to_string(hold.lease_ms) +
                     " ms ran out as asked (an expiry, not a loss)");
}

std::chrono::milliseconds trusted_validity(int64_t lease_ms) {
  return std::chrono::milliseconds(lease_ms - std::clamp<int64_t>(lease_ms / 20, 2, 500));
}

std::optional<Hold> Holds::find(const std::string& name, uint64_t owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = holds_.find({name, owner});
  if (it == holds_.end()) return std::nullopt;
  return it->second;
}

std::optional<uint64_t> Holds::reenter(const std::string& name, uint64_t owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = holds_.find({name, owner});
  if (it == holds_.end()) return std::nullopt;
  if (it->second.lost) {
    throw_ended(it->second, "acquire: this owner's hold on '" + name + "'",
                "was lost; release it before acquiring again");
  }
  ++it->second.count;
  return it->second.grant.token;
}

void Holds::insert(Hold hold) {
  std::lock_guard<std::mutex> lock(mutex_);
  Key key{hold.resource->hold_key(), hold.owner};
  holds_[std::move(key)] = std::move(hold);
}

std::optional<Hold> Holds::leave(const std::string& name, uint64_t owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = holds_.find({name, owner});
  if (it == holds_.end()) return std::nullopt;
  Hold before = it->second;
  if (before.count > 1) {
    --it->second.count;
  } else {
    holds_.erase(it);
  }
  return before;
}

std::optional<Hold> Holds::take_if_outermost(const std::string& name, uint64_t owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = holds_.find({name, owner});
  if (it == holds_.end()) return std::nullopt;
  Hold before = it->second;
  if (before.count == 1) holds_.erase(it);
  return before;
}

std::vector<Hold> Holds::take_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Hold> all;
  for (auto& entry : holds_) all.push_back(std::move(entry.second));
  holds_.clear();
  return all;
}

std::vector<Hold> Holds::taken_through(const void* handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Hold> taken;
  for (auto it = holds_.begin(); it != holds_.end();) {
    if (it->second.taken_through == handle) {
      taken.push_back(std::move(it->second));
      it = holds_.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}

int Holds::count_taken_through(const std::string& name, const void* handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  int count = 0;
  // Keys sort by name first: the holds of `name` are one run.
  for (auto it = holds_.lower_bound({name, 0}); it != holds_.end() && it->first.first == name; ++it) {
    if (it->second.taken_through == handle) ++count;
  }
  return count;
}

std::vector<Hold> Holds::due_for_renewal(Clock::time_point horizon) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Hold> due;
  for (const auto& [key, hold] : holds_) {
    if (hold.watchdog && !hold.lost && hold.renew_at <= horizon)
      due.push_back(hold);
  }
  return due;
}

std::vector<LostNotice> Holds::expire(Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<LostNotice> notices;
  for (auto& [key, hold] : holds_) {
    if (!hold.lost && hold.valid_until <= now) {
      hold.end(now);
      notices.push_back(LostNotice::of(hold, lost_at_deadline));
    }
  }
  return notices;
}

Clock::time_point Holds::next_deadline(Clock::time_point fallback) {
  std::lock_guard<std::mutex> lock(mutex_);
  Clock::time_point next = fallback;
  for (const auto& [key, hold] : holds_) {
    if (hold.lost) continue;
    next = std::min(next, hold.valid_until);
    if (hold.watchdog) next = std::min(next, hold.renew_at);
  }
  return next;
}

Clock::time_point Holds::earliest_validity_end(Clock::time_point fallback) {
  std::lock_guard<std::mutex> lock(mutex_);
  Clock::time_point earliest = fallback;
  for (const auto& [key, hold] : holds_) {
    if (!hold.lost) earliest = std::min(earliest, hold.valid_until);
  }
  return earliest;
}

Hold* Holds::find_grant(const Hold& hold) {
  const auto it = holds_.find({hold.resource->hold_key(), hold.owner});
  if (it == holds_.end() || it->second.grant_id != hold.grant_id) return nullptr;
  return &it->second;
}

std::optional<LostNotice> Holds::renewed(const Hold& hold, bool still_owned, Clock::time_point sent_at) {
  std::lock_guard<std::mutex> lock(mutex_);
  Hold* current = find_grant(hold);
  if (current == nullptr || current->lost) return std::nullopt;  // released meanwhile
  if (!still_owned) {
    current->end(sent_at);
    return LostNotice::of(*current, lost_at_renewal);
  }
  current->valid_until = std::max(current->valid_until, sent_at + trusted_validity(current->lease_ms));
  current->renew_at = sent_at + std::chrono::milliseconds(current->lease_ms) / 3;
  return std::nullopt;
}

void Holds::retry_renewal_at(const Hold& hold, Clock::time_point when) {
  std::lock_guard<std::mutex> lock(mutex_);
  Hold* current = find_grant(hold);
  if (current != nullptr) current->renew_at = when;
}

void Holds::extended(const Hold& hold, int64_t lease_ms, Clock::time_point sent_at) {
  std::lock_guard<std::mutex> lock(mutex_);
  Hold* current = find_grant(hold);
  if (current == nullptr || current->lost) return;
  current->lease_ms = lease_ms;
  current->valid_until = sent_at + trusted_validity(lease_ms);
}

}  // namespace dlock
