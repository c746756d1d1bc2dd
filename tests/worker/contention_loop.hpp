#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

// Runs options.threads threads of options.cycles critical sections each on one
// client, logging every section. Returns the process exit code: 0 when every
// acquire succeeded and every release returned DLOCK_OK or DLOCK_E_LOST.
int run_contention_loop(const WorkerOptions& options);

}  // namespace dlock_worker
