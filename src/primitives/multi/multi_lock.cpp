#include "primitives/multi/multi_lock.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "primitives/multi/group_wait.hpp"
#include "primitives/multi/member_checks.hpp"

namespace dlock {

MultiLock::MultiLock(std::vector<std::shared_ptr<LockMember>> members)
    : group_(distinct_members(std::move(members), 1), MemberGroup::Needed::all, "MultiLock") {}

std::optional<MultiLock::Refusal> MultiLock::attempt(const GroupRequest& request) {
  const auto& members = group_.members();
  std::vector<bool> taken(members.size(), false);
  for (size_t i = 0; i < members.size(); ++i) {
    LockMember::Outcome outcome;
    try {
      outcome = members[i]->try_once(request.owner, request.lease_ms, group_.member_callback(i));
    } catch (const ConnectionError&) {
      group_.release_members(request.owner, taken);
      members[i]->release_unrecorded(request.owner);  // its reply may be what was lost
      throw;
    } catch (...) {
      group_.release_members(request.owner, taken);
      throw;
    }
    if (!outcome.granted) {
      group_.release_members(request.owner, taken);
      return Refusal{i, outcome.holder_ttl_ms};
    }
    taken[i] = true;
  }
  group_.record(request.owner, std::move(taken), std::nullopt);
  return std::nullopt;
}

bool MultiLock::acquire(const GroupRequest& request) {
  if (group_.reenter(request.owner)) return true;
  const std::string what = "MultiLock '" + group_.name() + "'";
  const Clock::time_point deadline = group_deadline(request.wait_ms);
  GroupWait wait(group_.members(), request.cancel);
  for (;;) {
    const std::optional<Refusal> refusal = attempt(request);
    if (!refusal) return true;
    if (request.wait_ms == 0 || Clock::now() >= deadline) return false;
    std::vector<bool> busy(group_.members().size(), false);
    busy[refusal->member] = true;
    wait.watch(busy);
    Clock::time_point wake_at = deadline;
    if (refusal->holder_ttl_ms >= 0) {
      wake_at = std::min(wake_at, Clock::now() + std::chrono::milliseconds(refusal->holder_ttl_ms));
    }
    const bool signalled = wait.sleep_until(wake_at);
    wait.throw_if_stopped(what);
    if (!signalled && Clock::now() >= deadline) return false;
  }
}

}  // namespace dlock
