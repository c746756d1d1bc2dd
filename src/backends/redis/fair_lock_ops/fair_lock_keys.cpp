#include "backends/redis/fair_lock_ops/fair_lock_keys.hpp"

namespace dlock {

FairLockKeys::FairLockKeys(const LockKeys& lock)
    : queue(LockKeys::prefixed("dlock_fair_queue", lock.name)),
      seen(LockKeys::prefixed("dlock_fair_seen", lock.name)),
      wake_prefix(LockKeys::prefixed("dlock_fair_wake", lock.name) + ":") {}

}  // namespace dlock
