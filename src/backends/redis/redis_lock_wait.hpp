// A lock kind's wait on Redis (core/lock_ops.hpp): each try is the kind's
// acquire script (Lockable::attempt) with, under replica sync, the WAIT
// that confirms a grant; its wake-ups are the kind's channel on the client's
// subscriber and, for a kind whose waiters queue on the server (the fair
// lock's queue, the reentrant lock's waiting owners, a writer's intent), the
// heartbeat that keeps the entry alive, and the leave when it gives up.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "backends/redis/lockable.hpp"
#include "backends/redis/wait_heartbeat.hpp"
#include "backends/redis/wait_registration.hpp"
#include "core/client_core.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class RedisLockWait final : public LockWait {
 public:
  RedisLockWait(ClientCore& core, std::shared_ptr<const Lockable> resource, std::string field, int64_t lease_ms);
  RedisLockWait(const RedisLockWait&) = delete;
  RedisLockWait& operator=(const RedisLockWait&) = delete;

  Try attempt(int64_t wait_left_ms, bool woken_by_message) override;
  void watch(Waiter& waiter) override;
  void abandon() noexcept override;

 private:
  // Replica sync: after a fresh grant on `connection`, WAIT for the
  // configured replicas; a grant that reached too few is released again (false).
  bool confirm_replicated(Connection& connection);

  ClientCore& core_;
  const std::shared_ptr<const Lockable> resource_;
  const std::string field_;
  const int64_t lease_ms_;
  const std::string channel_;    // the registration refers to it
  Subscriber::Hearing hearing_;  // the channel's, before the try that preceded the registration
  uint64_t turn_number_ = 0;     // the last refusal's (Lockable::Attempt::turn_number)
  bool queued_ = false;          // in the server's queue
  std::optional<WaitRegistration> registration_;
  std::optional<WaitRegistration> other_releases_;  // a queued waiter's: the lock's own channel
  // Destroyed in this order's reverse, as abandon() drops them.
  std::optional<HeartbeatRegistration> heartbeat_;
};

}  // namespace dlock
