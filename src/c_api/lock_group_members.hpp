// What MultiLock and RedLock handles share at the ABI: members made from lock
// handles, and the entry points' common steps.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "c_api/async_calls.hpp"
#include "c_api/guarded.hpp"
#include "core/lock_member.hpp"
#include "dlock.h"
#include "primitives/multi/member_group.hpp"
#include "primitives/multi/multi_lock.hpp"

namespace dlock::c_api {

// The members behind `count` lock handles. Throws InvalidArgument naming
// `members` or `members[i]` (NULL, or its client closed).
std::vector<std::shared_ptr<LockMember>> members_from(dlock_lock* const* members, size_t count);

// A checked group request (wait, lease, owner, cancel).
GroupRequest group_request(uint64_t owner, int64_t wait_ms, int64_t lease_ms, dlock_cancel* cancel);

// The asynchronous acquire of a group's handle (a MultiLock's, a RedLock's,
// named `argument`): on the runner of its first member's client.
template <typename Handle>
int group_acquire_async(Handle* handle, const char* argument, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                        dlock_cancel* cancel, dlock_done_fn done, void* ctx) {
  return guarded([&] {
    require(handle, argument);
    require_callback(done);
    const GroupRequest request = group_request(owner, wait_ms, lease_ms, cancel);
    submit_reporting(handle->lock->group().async_runner(), handle->lock->acquire_wait(request), done, ctx);
    return DLOCK_OK;
  });
}

int group_hold_count(MemberGroup& group, uint64_t owner, int* out);
int group_is_held(MemberGroup& group, uint64_t owner, int* out);
int group_set_lost_callback(MemberGroup& group, dlock_lost_fn fn, void* ctx);

}  // namespace dlock::c_api
