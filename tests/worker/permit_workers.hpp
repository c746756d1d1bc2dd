// The worker's leased-permit modes (see worker_options.hpp).
#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

// threads x cycles of: take a permit of options.name (set to options.permits
// first if it does not exist), log the section, release it.
int run_permit_loop(const WorkerOptions& options);

// One permit taken, reported as "acquired <id>", held for hold_ms, then
// released: "release <status>" and "lost_callbacks <n>"; the section goes to
// options.log_path when one is given.
int run_permit_hold(const WorkerOptions& options);

}  // namespace dlock_worker
