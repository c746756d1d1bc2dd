#include "lock_keys.hpp"

#include "dlock.h"
#include "error.hpp"

namespace dlock {
namespace {

// Every derived key must hash to the lock's cluster slot. A name with '{' is
// hashed by its tag, so the tag must be one Redis recognises: a '}' after the
// first '{', with at least one byte between them.
bool has_usable_hash_tag(const std::string& name) {
  const std::size_t open = name.find('{');
  if (open == std::string::npos) return true;
  const std::size_t close = name.find('}', open + 1);
  return close != std::string::npos && close > open + 1;
}

}  // namespace

std::string LockKeys::prefixed(const char* prefix, const std::string& name) {
  if (name.find('{') != std::string::npos) {
    return std::string(prefix) + ":" + name;
  }
  return std::string(prefix) + ":{" + name + "}";
}

LockKeys::LockKeys(std::string lock_name) : name(std::move(lock_name)) {
  if (name.empty()) {
    throw InvalidArgument("name: must not be empty");
  }
  if (name.size() > DLOCK_NAME_MAX) {
    throw InvalidArgument("name: " + std::to_string(name.size()) + " bytes, longer than DLOCK_NAME_MAX (" +
                          std::to_string(DLOCK_NAME_MAX) + ")");
  }
  if (!has_usable_hash_tag(name)) {
    throw InvalidArgument("name: contains '{' without a non-empty hash tag such as {id}, so its keys "
                          "would not share a cluster slot");
  }
  channel = prefixed("redisson_lock__channel", name);
  counter = prefixed("redisson_lock_token", name);
  latch = prefixed("redisson_unlock_latch", name);
}

}  // namespace dlock
