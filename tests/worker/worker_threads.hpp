// What the worker's loops share: failures reported on stderr and counted, and
// threads run to their end.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "dlock.h"
#include "fenced_store.hpp"
#include "section_log.hpp"
#include "worker_options.hpp"

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

// What the threads of a loop that logs sections on the fenced store share.
struct SectionWork {
  const WorkerOptions& options;
  dlock_client* client;
  dlock_test::SectionLog log;
  dlock_test::FencedStore store;
  WorkerFailures failures;

  SectionWork(const WorkerOptions& worker_options, dlock_client* opened)
      : options(worker_options), client(opened), log(worker_options.log_path), store(worker_options.store_path) {}
};

// Runs body(index) on `threads` threads and waits for them; an exception
// escaping a body is a failure.
void run_threads(int threads, const std::function<void(int)>& body, WorkerFailures& failures);

// Calls `acquire` once, or with options.tolerate_errors until it returns
// DLOCK_OK or DLOCK_NOT_ACQUIRED (20 ms between tries); returns its last status.
int acquire_through_faults(const WorkerOptions& options, const std::function<int()>& acquire);

// As acquire_through_faults, and a wait that runs out (DLOCK_NOT_ACQUIRED)
// calls `repair` and tries again: the semaphores' loops set their permits
// again there when a restart without persistence lost them (the documented
// repair, a no-op when the key exists). Without options.tolerate_errors, one try.
int acquire_until_granted(const WorkerOptions& options, const std::function<int()>& acquire,
                          const std::function<void()>& repair);

// What a loop does with a release status it logged: true when the thread goes
// on (DLOCK_OK, DLOCK_E_LOST, or any status with options.tolerate_errors).
bool release_tolerated(const WorkerOptions& options, int status);

// With options.announce, prints "acquired <cycle>" on stdout at once: the
// safety run injects its holder faults while a section is open.
void announce_section(const WorkerOptions& options, int cycle);

}  // namespace dlock_worker
