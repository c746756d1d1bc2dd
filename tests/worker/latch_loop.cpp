#include "latch_loop.hpp"

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

constexpr int kCount = 3;
constexpr int64_t kAwaitMs = 10000;

// Awaits the latch; with options.tolerate_errors a connection error waits again
// (DLOCK_E_LOST, the latch's own "lost" outcome, is an answer and ends it).
int await_latch(const WorkerOptions& options, dlock_count_down_latch* latch) {
  for (;;) {
    const int status = dlock_count_down_latch_await(latch, kAwaitMs, nullptr);
    if (!options.tolerate_errors || status == DLOCK_OK || status == DLOCK_NOT_ACQUIRED ||
        status == DLOCK_E_LOST) {
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void run_round(const WorkerOptions& options, dlock_client* client, dlock_test::SectionLog& log,
               std::mt19937_64& random, int index, int cycle) {
  const std::string name = options.name + "." + std::to_string(getpid()) + "." + std::to_string(index) + "." +
                           std::to_string(cycle);
  const dlock_test::LatchHandle latch = dlock_test::new_latch(client, name);
  dlock_test::Section round;
  round.token = static_cast<uint64_t>(cycle);
  round.owner = std::to_string(getpid()) + "." + std::to_string(index);
  int set = 0;
  if (acquire_through_faults(options, [&] {
        return dlock_count_down_latch_try_set_count(latch.get(), kCount, &set);
      }) != DLOCK_OK) {
    return;
  }
  std::thread waiter([&] {
    round.release_status = await_latch(options, latch.get());
    round.end_ns = dlock_test::monotonic_ns();
  });
  announce_section(options, cycle);
  std::uniform_int_distribution<int64_t> pause_us(options.min_sleep_us, options.max_sleep_us);
  bool all_counted = true;
  for (int step = 0; step < kCount; ++step) {
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us(random)));
    if (step == kCount - 1) round.start_ns = dlock_test::monotonic_ns();
    all_counted = dlock_count_down_latch_count_down(latch.get()) == DLOCK_OK && all_counted;
  }
  waiter.join();
  round.write_accepted = all_counted;
  log.append(round);
}

}  // namespace

int run_latch_loop(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  dlock_test::SectionLog log(options.log_path);
  WorkerFailures failures;
  run_threads(
      options.threads,
      [&](int index) {
        std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
        for (int cycle = 0; cycle < options.cycles; ++cycle) {
          run_round(options, client.get(), log, random, index, cycle);
        }
      },
      failures);
  return failures.exit_code();
}

}  // namespace dlock_worker
