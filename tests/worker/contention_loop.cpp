#include "contention_loop.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dlock_handles.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "worker_threads.hpp"

namespace dlock_worker {
namespace {

using dlock_test::describe_status;

struct Shared {
  const WorkerOptions& options;
  dlock_client* client;
  dlock_test::SectionLog log;
  dlock_test::FencedStore store;
  WorkerFailures failures;
};

void fail(Shared& shared, const std::string& message) {
  shared.failures.fail(message);
}

void run_thread(Shared& shared, int index) {
  const WorkerOptions& options = shared.options;
  const dlock_test::LockHandle lock = dlock_test::new_lock(shared.client, options.name);
  const std::string owner = std::to_string(getpid()) + "." + std::to_string(index);
  std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
  std::uniform_int_distribution<int64_t> section_us(options.min_sleep_us, options.max_sleep_us);

  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    dlock_test::Section section;
    section.owner = owner;
    const int acquired = dlock_lock_acquire(lock.get(), -1, options.lease_ms, &section.token);
    if (acquired != DLOCK_OK) return fail(shared, "acquire: " + describe_status(acquired));
    section.start_ns = dlock_test::monotonic_ns();
    const long long value = shared.store.read();
    std::this_thread::sleep_for(std::chrono::microseconds(section_us(random)));
    section.write_accepted = shared.store.write(section.token, value + 1);
    section.end_ns = dlock_test::monotonic_ns();
    section.release_status = dlock_lock_release(lock.get());
    shared.log.append(section);
    if (section.release_status != DLOCK_OK && section.release_status != DLOCK_E_LOST) {
      return fail(shared, "release: " + describe_status(section.release_status));
    }
  }
}

}  // namespace

int run_contention_loop(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  Shared shared{options, client.get(), dlock_test::SectionLog(options.log_path),
                dlock_test::FencedStore(options.store_path)};
  run_threads(
      options.threads, [&shared](int index) { run_thread(shared, index); }, shared.failures);
  return shared.failures.exit_code();
}

}  // namespace dlock_worker
