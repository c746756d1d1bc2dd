// The worker's plain-semaphore mode (see worker_options.hpp).
#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

// threads x cycles of: take one permit of the semaphore options.name (set to
// options.permits when it does not exist), log the section, return it.
// Returns the exit code.
int run_semaphore_loop(const WorkerOptions& options);

}  // namespace dlock_worker
