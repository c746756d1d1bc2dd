// The reference for the scripts' own cost: Redisson's two RLock scripts
// (redisson_try_lock.lua, redisson_unlock.lua, copied from Redisson) sent
// with EVALSHA over one bare hiredis connection, with Redisson's keys and
// argument shapes and its default latch life.
#pragma once

#include <cstdint>
#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "script_link.hpp"

namespace dlock_bench {

class BareRedissonLock {
 public:
  BareRedissonLock(const dlock::ClientConfig& server, const std::string& name, int64_t lease_ms);

  // Throws std::runtime_error unless the lock was granted.
  void acquire();
  // Throws std::runtime_error unless the caller's last hold was released.
  void release();

 private:
  const std::string client_id_;
  ScriptLink link_;
  const std::string try_lock_sha_;
  const std::string unlock_sha_;
  // Redisson's layout is dlock's: the same key and channel names.
  const dlock::LockKeys keys_;
  // A latch per unlock, redisson_unlock_latch:{name}:<32 hex digits>, as
  // Redisson's random request ids are: a random half and a counted half.
  const std::string latch_prefix_;
  const std::string lease_;
  const std::string field_;
  const std::string latch_ms_;
  uint64_t requests_ = 0;
};

}  // namespace dlock_bench
