// Per-period attempt counters next to a lock (count_attempt.lua), for jobs
// that may be tried a bounded number of times per period.
#pragma once

#include <cstdint>
#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "core/client_core.hpp"

namespace dlock {

struct AttemptCount {
  bool counted;      // false: max_attempts had been reached, nothing counted
  int64_t attempts;  // this attempt's number, or the attempts counted so far
};

// Counts one attempt on <keys.attempts>:<period_id>; a new counter lapses
// expire_ms after its first attempt. Safe to retry: a request is counted once.
AttemptCount count_attempt(ClientCore& core, const LockKeys& keys, const std::string& period_id,
                           int64_t expire_ms, int64_t max_attempts);

}  // namespace dlock
