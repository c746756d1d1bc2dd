#include "election_loop.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>

#include "dlock_handles.hpp"
#include "fenced_store.hpp"
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "worker_threads.hpp"

namespace dlock_worker {
namespace {

using dlock_test::describe_status;

void run_candidate(SectionWork& shared, int index) {
  const WorkerOptions& options = shared.options;
  const dlock_test::ElectionHandle election = dlock_test::new_election(shared.client, options.name);
  const std::string me = std::to_string(getpid()) + "." + std::to_string(index);
  std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
  std::uniform_int_distribution<int64_t> section_us(options.min_sleep_us, options.max_sleep_us);
  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    dlock_test::Section section;
    section.owner = me;
    const int campaigned = acquire_through_faults(
        options, [&] { return dlock_election_campaign(election.get(), me.c_str(), -1, &section.token); });
    if (campaigned != DLOCK_OK) return shared.failures.fail("campaign: " + describe_status(campaigned));
    section.start_ns = dlock_test::monotonic_ns();
    // Read before the announcement: a test that pauses a leader once it has
    // announced must not catch it inside the store's flock, which would stop
    // every other process's store operation too.
    const long long value = shared.store.read();
    announce_section(options, cycle);
    if (options.announce) {
      std::printf("term %llu leading\n", static_cast<unsigned long long>(section.token));
      std::fflush(stdout);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(section_us(random)));
    section.write_accepted = shared.store.write(section.token, value + 1);
    section.end_ns = dlock_test::monotonic_ns();
    shared.log.append(section);  // before the resign: a kill inside it is no overlap
    section.release_status = dlock_election_resign(election.get());
    if (!release_tolerated(options, section.release_status)) {
      return shared.failures.fail("resign: " + describe_status(section.release_status));
    }
  }
}

}  // namespace

int run_election_loop(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  SectionWork shared(options, client.get());
  run_threads(options.threads, [&shared](int index) { run_candidate(shared, index); }, shared.failures);
  return shared.failures.exit_code();
}

}  // namespace dlock_worker
