// What the worker's loops share: failures reported on stderr and counted, and
// threads run to their end.
#pragma once

#include <atomic>
#include <functional>
#include <string>

namespace dlock_worker {

class WorkerFailures {
 public:
  // Prints `message` with the process id on stderr and counts it.
  void fail(const std::string& message);
  // 0 when nothing failed, else 3.
  int exit_code() const { return count_.load() == 0 ? 0 : 3; }

 private:
  std::atomic<int> count_{0};
};

// Runs body(index) on `threads` threads and waits for them; an exception
// escaping a body is a failure.
void run_threads(int threads, const std::function<void(int)>& body, WorkerFailures& failures);

}  // namespace dlock_worker
