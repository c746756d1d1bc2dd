// A reentrant lock as the core holds it: its Redisson-layout keys and the
// scripts that renew and release it. The one place a lock's release (with its
// retry latch) is written.
#pragma once

#include <cstdint>
#include <string>

#include "core/held_resource.hpp"
#include "core/wait_heartbeat.hpp"
#include "primitives/lock/lock_keys.hpp"
#include "redis/url.hpp"

namespace dlock {

// The scripts of the reentrant lock, shared by every client of the process.
struct LockScripts {
  static Script& acquire();
  static Script& release();
  static Script& renew();
  static Script& force_release();
  static Script& keep();
  static Script& inspect();
  static Script& count_attempt();
};

// What one acquire attempt found.
struct LockAttempt {
  bool granted;
  int64_t value;  // the token when granted, else the holder's PTTL (-1: wait for a message alone)
};

// The reentrant lock; a lock kind with the same hash but another way to
// queue its waiters (the fair lock) overrides the acquire side.
class LockResource : public HeldResource {
 public:
  // The client's release_yield_ms: how long a release that woke waiters
  // leaves the lock to them (their turn, release.lua); 0 never.
  LockResource(std::string name, const ClientConfig& config)
      : keys(std::move(name)), yield_ms(std::to_string(config.release_yield_ms)) {}

  const std::string& name() const override { return keys.name; }
  Script& renewal_script() const override { return LockScripts::renew(); }
  Argv renewal_keys() const override { return {keys.name}; }
  // release.lua: deletes the hash and publishes 0 when `field` holds it, and
  // keeps `request_id` under the owner's latch so a retry answers the same
  // and an older acquire of the owner that arrives late is refused.
  bool release(Connection& connection, const std::string& field, const std::string& request_id,
               int64_t retry_window_ms) const override;

  // One acquire attempt by `field` (acquire.lua) under `request_id`;
  // `will_wait` says whether the caller waits if it is not granted.
  virtual LockAttempt attempt(Connection& connection, const std::string& field, const std::string& lease_ms,
                              const std::string& request_id, bool will_wait) const;
  // The channel whose messages tell `field`'s waiter to try again.
  virtual std::string wake_channel(const std::string& /*field*/) const { return keys.channel; }
  // The queue on the server that waiters stand in, when the lock has one.
  virtual const ServerQueue* server_queue() const { return nullptr; }

  const LockKeys keys;
  const std::string yield_ms;
};

}  // namespace dlock
