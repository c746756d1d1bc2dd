// The Redis names derived from an election's name. The leadership is a lock
// of its own name, so that it never meets a lock the user named the same;
// the leader's record and the stream of leaders share its hash tag.
#pragma once

#include <string>

namespace dlock {

struct ElectionKeys {
  // Throws InvalidArgument for a name the lock would refuse (core/key_names),
  // or one too long to leave room for the prefixes.
  explicit ElectionKeys(std::string name);

  std::string name;     // as the user gave it
  std::string lock;     // dlock_election:{name}: the leadership, in the lock's layout
  std::string leader;   // dlock_leader:{name}: the hash owner, value, term, since
  std::string leaders;  // dlock_leaders:{name}: the stream of leaders observers follow
};

}  // namespace dlock
