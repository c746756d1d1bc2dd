#include "primitives/multi/member_checks.hpp"

#include <string>

#include "common/error.hpp"

namespace dlock {
namespace {

std::string member_label(size_t i) {
  return "members[" + std::to_string(i) + "]";
}

}  // namespace

std::vector<std::shared_ptr<LockMember>> distinct_members(std::vector<std::shared_ptr<LockMember>> members,
                                                          size_t minimum) {
  if (members.size() < minimum) {
    throw InvalidArgument("count: needs at least " + std::to_string(minimum) + " members, got " +
                          std::to_string(members.size()));
  }
  for (size_t i = 0; i < members.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (members[i]->server() == members[j]->server() && members[i]->name() == members[j]->name()) {
        throw InvalidArgument(member_label(i) + ": the lock '" + members[i]->name() + "' on " +
                              members[i]->server() + " is already " + member_label(j));
      }
    }
  }
  return members;
}

void require_independent_servers(const std::vector<std::shared_ptr<LockMember>>& members) {
  for (size_t i = 0; i < members.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (members[i]->server() == members[j]->server()) {
        throw InvalidArgument(member_label(i) + ": on the same server as " + member_label(j) + " (" +
                              members[i]->server() + "); RedLock members need independent servers");
      }
    }
  }
}

}  // namespace dlock
