#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

// Threads x cycles of acquire / read-modify-write / release on a MultiLock
// (Mode::multilock) or a RedLock (Mode::redlock), each acquire waiting
// options.wait_ms. A wait that runs out is checked: no member may be left
// held by the caller. Returns the exit code.
int run_group_loop(const WorkerOptions& options);

}  // namespace dlock_worker
