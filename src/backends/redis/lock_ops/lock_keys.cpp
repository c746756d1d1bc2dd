#include "backends/redis/lock_ops/lock_keys.hpp"

#include "core/key_names.hpp"

namespace dlock {
std::string LockKeys::prefixed(const char* prefix, const std::string& name) {
  return dlock::prefixed(prefix, name);
}

LockKeys::LockKeys(std::string lock_name) : name(std::move(lock_name)) {
  check_name(name, "fencing counter and channel");
  channel = prefixed("redisson_lock__channel", name);
  counter = prefixed("redisson_lock_token", name);
  latch = prefixed("redisson_unlock_latch", name);
  turn = prefixed("dlock_turn", name);
  waiting = prefixed("dlock_waiting", name);
  deadlines = waiting + ":until";
  attempts = prefixed("dlock_attempts", name);
  attempt_latch = prefixed("dlock_attempt_latch", name);
  grant = prefixed("dlock_grant", name);
}

}  // namespace dlock
