#include "primitives/multi/member_group.hpp"

#include <algorithm>
#include <exception>

#include "common/error.hpp"

namespace dlock {
namespace {

bool canonical_order(const std::shared_ptr<LockMember>& a, const std::shared_ptr<LockMember>& b) {
  if (a->server() != b->server()) return a->server() < b->server();
  return a->name() < b->name();
}

}  // namespace

MemberGroup::MemberGroup(std::vector<std::shared_ptr<LockMember>> members, Needed needed, const char* kind)
    : members_(std::move(members)),
      needed_(needed == Needed::all ? members_.size() : members_.size() / 2 + 1),
      kind_(kind) {
  std::sort(members_.begin(), members_.end(), canonical_order);
  for (size_t i = 0; i < members_.size(); ++i) {
    if (i > 0) name_ += ',';
    name_ += members_[i]->name();
    member_callbacks_.push_back(std::make_shared<LostCallback>());
    member_callbacks_.back()->set(
        [this, i](const std::string&, uint64_t owner, uint64_t) { member_lost(i, owner); });
  }
}

MemberGroup::~MemberGroup() {
  // Waits for a call in progress; member holds outliving the group then find
  // an empty callback.
  for (const auto& callback : member_callbacks_) callback->clear();
}

size_t MemberGroup::count_held(const Hold& hold) const {
  size_t held = 0;
  for (size_t i = 0; i < members_.size(); ++i) {
    if (hold.held[i] && !hold.lost_members[i]) ++held;
  }
  return held;
}

void MemberGroup::member_lost(size_t index, uint64_t owner) {
  // Asked before the group's mutex is taken: the member takes its own.
  const bool expired = members_[index]->expired(owner);
  bool report = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = holds_.find(owner);
    if (it == holds_.end() || !it->second.held[index] || it->second.lost_members[index]) return;
    Hold& hold = it->second;
    hold.lost_members[index] = true;
    if (!hold.lost && count_held(hold) < needed_) {
      report = hold.lost = true;
      hold.expired = expired;
    }
  }
  if (report) on_lost_->call(name_, owner, 0);
}

std::optional<MemberGroup::Hold> MemberGroup::find(uint64_t owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = holds_.find(owner);
  if (it == holds_.end()) return std::nullopt;
  return it->second;
}

bool MemberGroup::reenter(uint64_t owner) {
  const std::optional<Hold> hold = find(owner);
  if (!hold) return false;
  const std::string lost = "the hold was lost; release it before acquiring again";
  if (hold->lost) throw_ended(hold->expired, lost);
  // Members are called outside the mutex: their loss reports take it.
  std::vector<bool> reentered(members_.size(), false);
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!hold->held[i] || hold->lost_members[i]) continue;
    try {
      reentered[i] = members_[i]->reenter(owner);
    } catch (const LostError&) {
      member_lost(i, owner);
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = holds_.find(owner);
    if (it != holds_.end() && !it->second.lost && count_held(it->second) >= needed_) {
      ++it->second.count;
      return true;
    }
  }
  release_members(owner, reentered);  // takes back the re-entries just counted
  throw_ended(false, lost);
}

void MemberGroup::record(uint64_t owner, std::vector<bool> held,
                         std::optional<Clock::time_point> valid_until) {
  std::lock_guard<std::mutex> lock(mutex_);
  Hold& hold = holds_[owner];
  hold.count = 1;
  hold.lost_members.assign(held.size(), false);
  hold.held = std::move(held);
  hold.lost = false;
  hold.valid_until = valid_until;
}

std::optional<MemberGroup::Hold> MemberGroup::leave(uint64_t owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = holds_.find(owner);
  if (it == holds_.end()) return std::nullopt;
  Hold before = it->second;
  if (--it->second.count == 0) holds_.erase(it);
  return before;
}

void MemberGroup::release_members(uint64_t owner, const std::vector<bool>& held) noexcept {
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!held[i]) continue;
    try {
      members_[i]->release(owner);
    } catch (...) {
      // Lost, unreachable or closed: its lease runs out on its own.
    }
  }
}

void MemberGroup::count_release(MembersReleased& tally, const std::function<void()>& release_one) {
  try {
    release_one();
    ++tally.released;
  } catch (const ExpiredError&) {
    ++tally.expired;
  } catch (const LostError&) {
  } catch (const NotOwnerError&) {
  } catch (const Error&) {
    if (!tally.error) tally.error = std::current_exception();
  }
}

MemberGroup::MembersReleased MemberGroup::release_in_turn(uint64_t owner, const std::vector<bool>& held) {
  MembersReleased tally;
  for (size_t i = 0; i < members_.size(); ++i) {
    if (held[i]) count_release(tally, [&] { members_[i]->release(owner); });
  }
  return tally;
}

void MemberGroup::release(uint64_t owner, const ReleaseHeld& outermost) {
  const std::optional<Hold> before = leave(owner);
  if (!before) throw NotOwnerError(std::string(kind_) + " '" + name_ + "': the caller does not hold it");
  const bool inner = before->count > 1;
  const MembersReleased tally = inner ? release_in_turn(owner, before->held) : outermost(owner, before->held);
  if (!before->lost && (inner || tally.released >= needed_)) return;
  if (!before->lost && tally.error) std::rethrow_exception(tally.error);
  // Found here first: the one and only notice.
  if (!before->lost) on_lost_->call(name_, owner, 0);
  // Found here first, it expired when every member missing had expired.
  const bool expired = before->lost ? before->expired
                                    : tally.expired > 0 &&
                                          tally.released + tally.expired == count_held(*before);
  throw_ended(expired, "the hold was lost (" + std::to_string(tally.released) + " of " +
                           std::to_string(members_.size()) + " members still held, " +
                           std::to_string(needed_) + " needed)");
}

void MemberGroup::throw_ended(bool expired, const std::string& what) const {
  const std::string group = std::string(kind_) + " '" + name_ + "': ";
  if (!expired) throw LostError(group + what);
  throw ExpiredError(group +
                     "the hold expired: its members' fixed lease ran out as asked (an expiry, not a loss)");
}

void MemberGroup::release_all() noexcept {
  std::map<uint64_t, Hold> holds;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    holds.swap(holds_);
  }
  for (const auto& [owner, hold] : holds) {
    for (int i = 0; i < hold.count; ++i) release_members(owner, hold.held);
  }
}

int MemberGroup::hold_count(uint64_t owner) {
  const std::optional<Hold> hold = find(owner);
  return hold ? hold->count : 0;
}

bool MemberGroup::is_held(uint64_t owner) {
  const std::optional<Clock::time_point> end = valid_until(owner);
  return end && *end > Clock::now();
}

std::optional<MemberGroup::Clock::time_point> MemberGroup::valid_until(uint64_t owner) {
  const std::optional<Hold> hold = find(owner);
  if (!hold || hold->lost) return std::nullopt;
  std::vector<Clock::time_point> ends;
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!hold->held[i]) continue;
    if (const auto end = members_[i]->valid_until(owner)) ends.push_back(*end);
  }
  if (ends.size() < needed_) return std::nullopt;
  std::sort(ends.begin(), ends.end(), std::greater<>());
  Clock::time_point end = ends[needed_ - 1];
  if (hold->valid_until) end = std::min(end, *hold->valid_until);
  return end;
}

}  // namespace dlock
