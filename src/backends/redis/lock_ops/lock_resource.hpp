// A reentrant lock as the core holds it: its Redisson-layout keys and the
// scripts that renew and release it. The one place a lock's release (with its
// retry latch) is written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "backends/redis/lockable.hpp"
#include "backends/redis/net/url.hpp"
#include "backends/redis/wait_heartbeat.hpp"

namespace dlock {

// The scripts of the reentrant lock, shared by every client of the process.
struct LockScripts {
  // The shared Lua parts put before acquire.lua, in order (fencing tokens,
  // hold checks, waiting owners): one list, for every script that runs the
  // lock's acquire inside its own (the election's) as for acquire() itself.
  static const std::vector<const char*>& acquire_prelude();
  // The shared Lua parts put before release.lua, in order.
  static const std::vector<const char*>& release_prelude();
  static Script& acquire();
  static Script& release();
  static Script& renew();
  static Script& force_release();
  static Script& keep();
  static Script& inspect();
  static Script& count_attempt();
  static Script& wait_leave();
};

// The reentrant lock; a lock kind with the same hash but another way to
// queue its waiters (the fair lock) overrides the acquire side and the queue.
// The reentrant lock's queue is its waiting owners (lua/lock/waiters.lua):
// their heartbeat keeps them in it, and one that gives up leaves it.
class LockResource : public Lockable, public ServerQueue {
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

  const std::string& channel() const override { return keys.channel; }
  // acquire.lua: grants with a fencing token or returns the holder's PTTL.
  Attempt attempt(Connection& connection, const std::string& field, int64_t lease_ms, int64_t wait_left_ms,
                  const std::string& request_id) const override;
  bool force_release(Connection& connection) const override;
  // keep.lua: `field`'s hold becomes a kept one (the field renamed
  // `field:kept`) that lapses in `keep_ms`; whether `field` held it (or a
  // retry found its own kept field).
  bool keep(Connection& connection, const std::string& field, int64_t keep_ms) const;

  // Without turns (release_yield_ms=0) nobody needs to know who waits.
  const ServerQueue* server_queue() const override { return yield_ms == "0" ? nullptr : this; }
  Script& heartbeat_script() const override;
  Argv heartbeat_keys() const override { return {keys.name, keys.waiting, keys.deadlines, keys.turn}; }
  Argv heartbeat_args() const override { return {}; }
  void leave(Connection& connection, const std::string& field) const override;
  bool is_locked(Connection& connection) const override;
  int64_t ttl_ms(Connection& connection) const override;

  const LockKeys keys;
  const std::string yield_ms;

 protected:
  // Runs acquire.lua with the lock's KEYS and ARGV; a kind that does more on
  // a grant (the election records its leader) runs its own script on them.
  virtual Reply run_acquire(Connection& connection, const Argv& keys, const Argv& args) const;
};

}  // namespace dlock
