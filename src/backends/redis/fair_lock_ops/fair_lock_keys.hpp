// The Redis names of a fair lock: the reentrant lock's (Redisson's RLock
// hash, channel and fencing counter, so both kinds exclude each other on one
// name) plus dlock's own queue, all under the lock's hash tag.
#pragma once

#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"

namespace dlock {

struct FairLockKeys {
  // Throws InvalidArgument for a name the lock refuses.
  explicit FairLockKeys(const LockKeys& lock);

  std::string queue;        // dlock_fair_queue:{name}: waiting fields by arrival (server µs)
  std::string seen;         // dlock_fair_seen:{name}: waiting fields by last heartbeat (server ms)
  std::string wake_prefix;  // dlock_fair_wake:{name}: ; + a field = that waiter's channel
};

}  // namespace dlock
