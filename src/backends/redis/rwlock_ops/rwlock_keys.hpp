// The Redis names derived from a read-write lock's name, in Redisson's
// RReadWriteLock layout, plus dlock's own fencing counter and write intent.
#pragma once

#include <string>

namespace dlock {

struct RwLockKeys {
  // Throws InvalidArgument for a name the lock would refuse (core/key_names).
  explicit RwLockKeys(std::string name);

  std::string name;     // the hash: 'mode' and one field per owner
  std::string channel;  // redisson_rwlock:{name}
  std::string counter;  // dlock_rwlock_token:{name}: dlock's fencing counter (Redisson has none)
  std::string latch;    // prefix of the owners' release latches
  std::string tagged;   // Redisson's "{name}" (or the name itself when tagged): the timeout keys' prefix
  std::string intent;   // {name}:write_intent: a waiting dlock writer
  std::string grant;    // prefix of the owners' grant keys: dlock_rwlock_grant:{name}

  // The grant key of the owner field `field` (lua/tokens.lua).
  std::string owner_grant(const std::string& field) const { return grant + ":" + field; }

  // Redisson's '{name}:<field>:rwlock_timeout': a read hold's timeout keys
  // are this plus ':<k>'.
  std::string timeout_prefix(const std::string& field) const;
};

}  // namespace dlock
