#include "backends/redis/election_ops/election_keys.hpp"

#include "common/error.hpp"
#include "core/key_names.hpp"

namespace dlock {

ElectionKeys::ElectionKeys(std::string election_name) : name(std::move(election_name)) {
  // The name alone first: a name that is only a hash tag ("{x}") would share
  // the keys of the election "x" once prefixed.
  check_name(name, "election keys");
  // The leadership's lock takes the name and its prefix, "dlock_election:{}".
  const std::size_t longest = kNameMaxBytes - sizeof("dlock_election:{}") + 1;
  if (name.size() > longest) {
    throw InvalidArgument("name: " + std::to_string(name.size()) + " bytes; an election's name is at most " +
                          std::to_string(longest) + " bytes (its lock's key adds a prefix)");
  }
  lock = prefixed("dlock_election", name);
  leader = prefixed("dlock_leader", name);
  leaders = prefixed("dlock_leaders", name);
}

}  // namespace dlock
