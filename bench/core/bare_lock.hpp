// The reference dlock is compared with: the core's own acquire and release
// scripts (the text the core embeds, SCRIPT LOADed) sent with EVALSHA over
// one bare hiredis connection, with the core's keys and argument shapes.
#pragma once

#include <cstdint>
#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "script_link.hpp"

namespace dlock_bench {

class BareLock {
 public:
  BareLock(const dlock::ClientConfig& server, const std::string& name, int64_t lease_ms);

  struct Attempt {
    bool granted;
    int64_t value;  // the fencing token when granted, else the holder's PTTL
  };
  Attempt try_acquire();
  // Throws std::runtime_error unless the caller held the lock.
  void release();

  const std::string& channel() const { return keys_.channel; }

 private:
  // A random UUID per instance, as the core's client id.
  const std::string client_id_;
  ScriptLink link_;
  const std::string acquire_sha_;
  const std::string release_sha_;
  const dlock::LockKeys keys_;
  const std::string lease_;
  const std::string field_;
  const std::string latch_;           // the owner's release latch
  const std::string grant_;           // the owner's grant key (lua/tokens.lua)
  const std::string request_prefix_;  // request ids are "<client id>:<count>", as the core's
  const std::string latch_ms_;
  const std::string yield_ms_;
  uint64_t requests_ = 0;

  std::string next_request();
};

}  // namespace dlock_bench
