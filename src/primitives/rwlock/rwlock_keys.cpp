#include "primitives/rwlock/rwlock_keys.hpp"

namespace dlock {

RwLockKeys::RwLockKeys(std::string checked_name, PrefixRule prefixed) : name(std::move(checked_name)) {
  channel = prefixed("redisson_rwlock", name);
  counter = prefixed("dlock_rwlock_token", name);
  latch = prefixed("dlock_rwlock_latch", name);
  // Redisson's suffixName(): the prefixed form without a prefix.
  tagged = prefixed("", name).substr(1);
  intent = tagged + ":write_intent";
}

std::string RwLockKeys::timeout_prefix(const std::string& field) const {
  return tagged + ":" + field + ":rwlock_timeout";
}

}  // namespace dlock
