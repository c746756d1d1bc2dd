// Election mode: each thread is a candidate (its own election handle) that
// campaigns, publishing "<pid>.<thread>", and while it leads does one
// read-modify-write of the fenced store under its term (the section lasts
// min..max_sleep_us), logged as a section, then resigns; `cycles` times.
#pragma once

#include "worker_options.hpp"

namespace dlock_worker {

int run_election_loop(const WorkerOptions& options);

}  // namespace dlock_worker
