#include "backends/redis/rwlock_ops/rwlock_keys.hpp"

#include "core/key_names.hpp"

namespace dlock {

RwLockKeys::RwLockKeys(std::string lock_name) : name(std::move(lock_name)) {
  check_name(name, "fencing counter and channel");
  channel = prefixed("redisson_rwlock", name);
  counter = prefixed("dlock_rwlock_token", name);
  latch = prefixed("dlock_rwlock_latch", name);
  grant = prefixed("dlock_rwlock_grant", name);
  intent = suffixed(name, "write_intent");
  // Redisson's suffixName() without its suffix: what its read unlock builds the timeout keys on.
  tagged = suffixed(name, "");
  tagged.pop_back();
}

std::string RwLockKeys::timeout_prefix(const std::string& field) const {
  return tagged + ":" + field + ":rwlock_timeout";
}

}  // namespace dlock
