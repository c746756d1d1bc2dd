#include "worker_threads.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>
#include <vector>

#include "dlock.h"

namespace dlock_worker {

void WorkerFailures::fail(const std::string& message) {
  std::fprintf(stderr, "worker %d: %s\n", static_cast<int>(getpid()), message.c_str());
  count_.fetch_add(1);
}

void run_threads(int threads, const std::function<void(int)>& body, WorkerFailures& failures) {
  std::vector<std::thread> running;
  for (int index = 0; index < threads; ++index) {
    running.emplace_back([&body, &failures, index] {
      try {
        body(index);
      } catch (const std::exception& error) {
        failures.fail(error.what());
      }
    });
  }
  for (std::thread& thread : running) thread.join();
}

int acquire_through_faults(const WorkerOptions& options, const std::function<int()>& acquire) {
  for (;;) {
    const int status = acquire();
    if (!options.tolerate_errors || status == DLOCK_OK || status == DLOCK_NOT_ACQUIRED) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

int acquire_until_granted(const WorkerOptions& options, const std::function<int()>& acquire,
                          const std::function<void()>& repair) {
  for (;;) {
    const int status = acquire_through_faults(options, acquire);
    if (!options.tolerate_errors || status != DLOCK_NOT_ACQUIRED) return status;
    repair();
  }
}

bool release_tolerated(const WorkerOptions& options, int status) {
  return options.tolerate_errors || status == DLOCK_OK || status == DLOCK_E_LOST;
}

void announce_section(const WorkerOptions& options, int cycle) {
  if (!options.announce) return;
  std::printf("acquired %d\n", cycle);
  std::fflush(stdout);
}

}  // namespace dlock_worker
