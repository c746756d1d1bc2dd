// The worker's count-down latch mode (see worker_options.hpp).
#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

// threads x cycles rounds; each round sets a fresh latch (named after
// options.name, the process, the thread and the round) to 3, a waiter thread
// awaits it while this thread counts it down three times with random pauses.
// One section per round: token the round, start_ns the moment the third
// count-down was sent, end_ns the moment the waiter returned, release_status
// what the await returned, write_accepted whether all three count-downs
// returned DLOCK_OK (else the round proves nothing). A waiter released before
// the third count-down (end before start) is what the checker looks for.
int run_latch_loop(const WorkerOptions& options);

}  // namespace dlock_worker
