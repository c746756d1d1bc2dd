#include "held_locks.hpp"

namespace dlock_bench {

dlock_client_stats stats_of(dlock_client* client) {
  dlock_client_stats stats{};
  stats.size = sizeof stats;
  require_ok(dlock_client_stats_get(client, &stats), "dlock_client_stats_get");
  return stats;
}

HeldLocks::HeldLocks(dlock_client* client, const std::string& prefix, int count) {
  locks_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    locks_.push_back(new_lock(client, prefix + std::to_string(i)));
    require_ok(dlock_lock_acquire(locks_.back().get(), 0, -1, nullptr), "dlock_lock_acquire");
  }
}

int HeldLocks::still_held() const {
  int still = 0;
  for (const LockHandle& lock : locks_) {
    int held = 0;
    require_ok(dlock_lock_is_held(lock.get(), &held), "dlock_lock_is_held");
    still += held;
  }
  return still;
}

void HeldLocks::release_all() {
  for (const LockHandle& lock : locks_) require_ok(dlock_lock_release(lock.get()), "dlock_lock_release");
}

}  // namespace dlock_bench
