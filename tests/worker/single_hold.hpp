#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

// Acquires once and prints "acquired <token>", stays in the critical section for
// options.hold_ms of monotonic time (a SIGSTOP in between stretches nothing), then
// writes the store ("write accepted|stale"), releases ("release <status>") and
// reports the lost callbacks seen ("lost_callbacks <n>"). Returns the exit code.
int run_single_hold(const WorkerOptions& options);

}  // namespace dlock_worker
