// The fair lock as the core and the lock's acquire steps see it: the
// reentrant lock's hash, renewed by the same script, with an acquire that
// queues by arrival at the server, a release that grants the head of the
// queue within the release itself, and a queue its waiters heartbeat.
#pragma once

#include <string>

#include "backends/redis/fair_lock_ops/fair_lock_keys.hpp"
#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/wait_heartbeat.hpp"

namespace dlock {

class FairLockResource final : public LockResource {
 public:
  FairLockResource(std::string name, const ClientConfig& config)
      : LockResource(std::move(name), config), fair_keys(keys) {}

  // release.lua of the fair lock: hands the lock to the head of the queue.
  bool release(Connection& connection, const std::string& field, const std::string& request_id,
               int64_t retry_window_ms) const override;

  // The queue orders attempts, so the request id is not needed to refuse a
  // late one (a withdrawn waiter has left the queue); it tells a retried
  // grant from a fresh one (lua/tokens.lua).
  Attempt attempt(Connection& connection, const std::string& field, int64_t lease_ms, int64_t wait_left_ms,
                  const std::string& request_id) const override;
  // Each waiter has its own channel: a release wakes the head alone.
  std::string wake_channel(const std::string& field) const override { return fair_keys.wake_prefix + field; }
  const ServerQueue* server_queue() const override { return this; }

  Script& heartbeat_script() const override;
  Argv heartbeat_keys() const override { return queue_keys(); }
  Argv heartbeat_args() const override { return {fair_keys.wake_prefix}; }
  void leave(Connection& connection, const std::string& field) const override;

  const FairLockKeys fair_keys;

 private:
  // KEYS[1..4] of every fair-lock script (lua/fair_lock/queue.lua).
  Argv queue_keys() const { return {keys.name, keys.counter, fair_keys.queue, fair_keys.seen}; }
};

}  // namespace dlock
