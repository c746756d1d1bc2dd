#include "worker_threads.hpp"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <thread>
#include <vector>

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

}  // namespace dlock_worker
