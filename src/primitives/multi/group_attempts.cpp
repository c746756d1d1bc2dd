#include "primitives/multi/group_attempts.hpp"

#include "common/error.hpp"

namespace dlock {

GroupAttempts::GroupAttempts(MemberGroup& group, const char* kind, const GroupRequest& request)
    : group_(group),
      request_(request),
      busy_(group.members().size(), false),
      what_(std::string(kind) + " '" + group.name() + "'") {}

void GroupAttempts::watch(Waiter& waiter) {
  const auto& members = group_.members();
  for (size_t i = 0; i < members.size(); ++i) {
    if (!busy_[i]) {
      watches_.erase(i);
    } else if (watches_.count(i) == 0) {
      // A new watch signals at once when its channel is already subscribed,
      // so a release in between is not missed.
      watches_.emplace(i, members[i]->watch(waiter));
    }
  }
}

bool GroupAttempts::closed() {
  for (const auto& member : group_.members()) {
    if (member->closed()) return true;
  }
  return false;
}

void GroupAttempts::throw_if_closed() {
  for (const auto& member : group_.members()) {
    if (member->closed())
      throw ClosedError(what_ + ": the client of member '" + member->name() + "' was closed");
  }
}

}  // namespace dlock
