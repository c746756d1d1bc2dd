#include "semaphore_loop.hpp"

#include <unistd.h>

#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "semaphore_handles.hpp"
#include "worker_threads.hpp"

namespace dlock_worker {
namespace {

using dlock_test::describe_status;

void run_thread(const WorkerOptions& options, dlock_client* client, dlock_test::SectionLog& log,
                WorkerFailures& failures, int index) {
  const dlock_test::SemaphoreHandle semaphore = dlock_test::new_semaphore(client, options.name);
  std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
  std::uniform_int_distribution<int64_t> section_us(options.min_sleep_us, options.max_sleep_us);
  const auto set_permits = [&] {
    int set = 0;  // a failure here is retried by the next acquire
    dlock_semaphore_try_set_permits(semaphore.get(), options.permits, &set);
  };
  set_permits();
  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    dlock_test::Section section;
    section.owner = std::to_string(getpid()) + "." + std::to_string(index);
    const int acquired = acquire_until_granted(
        options, [&] { return dlock_semaphore_acquire(semaphore.get(), 1, options.wait_ms, nullptr); },
        set_permits);
    if (acquired != DLOCK_OK) return failures.fail("acquire: " + describe_status(acquired));
    section.start_ns = dlock_test::monotonic_ns();
    announce_section(options, cycle);
    std::this_thread::sleep_for(std::chrono::microseconds(section_us(random)));
    section.end_ns = dlock_test::monotonic_ns();
    section.release_status = dlock_semaphore_release(semaphore.get(), 1);
    log.append(section);
    if (!release_tolerated(options, section.release_status)) {
      return failures.fail("release: " + describe_status(section.release_status));
    }
  }
}

}  // namespace

int run_semaphore_loop(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  dlock_test::SectionLog log(options.log_path);
  WorkerFailures failures;
  run_threads(
      options.threads, [&](int index) { run_thread(options, client.get(), log, failures, index); }, failures);
  return failures.exit_code();
}

}  // namespace dlock_worker
