// One fault phase: every primitive's workers run at once against one
// deployment while the fault is injected, then each primitive's log is judged.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "deployment.hpp"
#include "plan.hpp"
#include "verdict.hpp"

namespace dlock_safety {

struct RunSettings {
  std::size_t grants = 300;  // per primitive per fault, at least
  int fault_repeats = 1;     // how many times a phase injects its fault
  int contender_processes = 2;
  int threads_per_process = 2;
  std::chrono::seconds phase_deadline{60};  // a primitive that stalls is stopped and reported
  std::string work_dir;                     // logs, stores and worker outputs
};

std::vector<CellResult> run_phase(Fault fault, Deployment& deployment,
                                  const std::vector<Primitive>& primitives, const RunSettings& settings);

}  // namespace dlock_safety
