// The checks of a group's members.
#pragma once

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

}  // namespace dlock
