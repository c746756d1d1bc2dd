#include "c_api/lock_group_members.hpp"

#include <string>

#include "c_api/handles.hpp"
#include "primitives/lock/lock_member.hpp"

namespace dlock::c_api {

std::vector<std::shared_ptr<LockMember>> members_from(dlock_lock* const* members, size_t count) {
  if (count > 0) require(members, "members");  // none at all is the count's fault
  std::vector<std::shared_ptr<LockMember>> result;
  for (size_t i = 0; i < count; ++i) {
    const std::string label = "members[" + std::to_string(i) + "]";
    if (members[i] == nullptr) throw InvalidArgument(label + ": must not be NULL");
    try {
      result.push_back(std::make_shared<ReentrantLockMember>(members[i]->client, members[i]->ops));
    } catch (const ClosedError&) {
      throw InvalidArgument(label + ": its client was closed");
    }
  }
  return result;
}

GroupRequest group_request(uint64_t owner, int64_t wait_ms, int64_t lease_ms, dlock_cancel* cancel) {
  GroupRequest request;
  request.owner = owner;
  request.wait_ms = checked_wait(wait_ms);
  require_lease(lease_ms);
  request.lease_ms = lease_ms;
  request.cancel = cancel != nullptr ? &cancel->cancel : nullptr;
  return request;
}

int group_hold_count(MemberGroup& group, uint64_t owner, int* out) {
  require(out, "out");
  *out = group.hold_count(owner);
  return DLOCK_OK;
}

int group_is_held(MemberGroup& group, uint64_t owner, int* out) {
  require(out, "out");
  *out = group.is_held(owner) ? 1 : 0;
  return DLOCK_OK;
}

int group_set_lost_callback(MemberGroup& group, dlock_lost_fn fn, void* ctx) {
  group.on_lost().set(lost_fn(fn, ctx));
  return DLOCK_OK;
}

}  // namespace dlock::c_api
