#pragma once

#include <cstdint>
#include <future>

#include "dlock.h"

namespace dlock_test {

struct AcquireOutcome {
  int status = 0;
  uint64_t token = 0;
  int64_t returned_ns = 0;  // CLOCK_MONOTONIC when the acquire returned
  int release_status = 0;   // of the immediate release, when granted
};

// Acquires `lock` for `owner` on another thread and, when granted, releases it at
// once, so several waiters can each take their turn.
std::future<AcquireOutcome> acquire_in_background(dlock_lock* lock, uint64_t owner, int64_t wait_ms,
                                                  int64_t lease_ms = 10000);

}  // namespace dlock_test
