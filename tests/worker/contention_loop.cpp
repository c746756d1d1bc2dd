#include "contention_loop.hpp"

#include <unistd.h>

#include <algorithm>
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
#include "lock_side.hpp"
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "worker_threads.hpp"

namespace dlock_worker {
namespace {

using dlock_test::describe_status;

// A read section must see the store unchanged from start to end: a write in
// between means a writer overlapped it.
void read_section(SectionWork& shared, const dlock_test::Section& section, std::chrono::microseconds length) {
  const long long before = shared.store.read();
  std::this_thread::sleep_for(length);
  const long long after = shared.store.read();
  if (after == before) return;
  shared.failures.fail("owner " + section.owner + " saw the store change from " + std::to_string(before) + " to " +
                   std::to_string(after) + " inside a read section (token " + std::to_string(section.token) +
                   ")");
}

void run_thread(SectionWork& shared, int index) {
  const WorkerOptions& options = shared.options;
  const bool mixed = options.kind == "read-write";
  const dlock_test::LockHandle lock = open_side(shared.client, options.name, mixed ? "write" : options.kind);
  const dlock_test::LockHandle read_lock = mixed ? open_side(shared.client, options.name, "read") : nullptr;
  std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
  std::uniform_int_distribution<int64_t> section_us(options.min_sleep_us, options.max_sleep_us);
  std::uniform_int_distribution<int> side_pick(1, std::max(1, options.write_one_in));

  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    const bool reading = options.kind == "read" || (mixed && side_pick(random) != 1);
    dlock_lock* taken = reading && mixed ? read_lock.get() : lock.get();
    dlock_test::Section section;
    section.owner = section_owner(mixed ? (reading ? "read" : "write") : options.kind, index);
    const int acquired = acquire_through_faults(
        options, [&] { return dlock_lock_acquire(taken, -1, options.lease_ms, &section.token); });
    if (acquired != DLOCK_OK) return shared.failures.fail("acquire: " + describe_status(acquired));
    section.start_ns = dlock_test::monotonic_ns();
    announce_section(options, cycle);
    const std::chrono::microseconds length(section_us(random));
    if (reading) {
      read_section(shared, section, length);
    } else {
      const long long value = shared.store.read();
      std::this_thread::sleep_for(length);
      section.write_accepted = shared.store.write(section.token, value + 1);
    }
    section.end_ns = dlock_test::monotonic_ns();
    section.release_status = dlock_lock_release(taken);
    shared.log.append(section);
    if (!release_tolerated(options, section.release_status)) {
      return shared.failures.fail("release: " + describe_status(section.release_status));
    }
  }
}

}  // namespace

int run_contention_loop(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  SectionWork shared(options, client.get());
  run_threads(options.threads, [&shared](int index) { run_thread(shared, index); }, shared.failures);
  return shared.failures.exit_code();
}

}  // namespace dlock_worker
