// The checks of a group's members, and the wait's deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/lock_member.hpp"

namespace dlock {

// Returns `members` when there are at least `minimum`, none is null and no
// lock (server, name) is given twice; else throws InvalidArgument naming
// `members[i]`.
std::vector<std::shared_ptr<LockMember>> distinct_members(std::vector<std::shared_ptr<LockMember>> members,
                                                          size_t minimum);
// Throws InvalidArgument naming the members that share a server.
void require_independent_servers(const std::vector<std::shared_ptr<LockMember>>& members);

// The end of a wait: wait_ms 0 now, -1 (forever) far in the future.
std::chrono::steady_clock::time_point group_deadline(int64_t wait_ms);

}  // namespace dlock
