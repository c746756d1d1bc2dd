// Election mode: each thread is a candidate (its own election handle) that
// campaigns, publishing "<pid>.<thread>", and while it leads writes to the
// fenced store under its term as it starts and as it ends (two
// read-modify-writes), logged as a section, then resigns; `cycles` times.
// hold_ms is how long each leadership lasts, so a test can kill or pause
// the leader while it leads.
#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

int run_election_loop(const WorkerOptions& options);

}  // namespace dlock_worker
