#include "permit_workers.hpp"

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
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "semaphore_handles.hpp"
#include "wait_until.hpp"
#include "worker_threads.hpp"

namespace dlock_worker {
namespace {

using dlock_test::describe_status;

void say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void set_permits(dlock_permit_semaphore* semaphore, int permits) {
  int set = 0;
  dlock_test::require_ok(dlock_permit_semaphore_try_set_permits(semaphore, permits, &set), "try_set_permits");
}

// Takes and releases permits `cycles` times; returns the failures.
int permit_cycles(const WorkerOptions& options, dlock_client* client, dlock_test::SectionLog& log,
                  int index) {
  const dlock_test::PermitSemaphoreHandle semaphore = dlock_test::new_permit_semaphore(client, options.name);
  const std::string owner = std::to_string(getpid()) + "." + std::to_string(index);
  std::mt19937_64 random(static_cast<uint64_t>(getpid()) * 1000 + static_cast<uint64_t>(index));
  std::uniform_int_distribution<int64_t> section_us(options.min_sleep_us, options.max_sleep_us);
  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    char id[DLOCK_PERMIT_ID_SIZE];
    dlock_test::Section section;
    section.owner = owner;
    const int acquired = acquire_until_granted(
        options,
        [&] {
          return dlock_permit_semaphore_acquire(semaphore.get(), options.wait_ms, options.lease_ms, nullptr,
                                                id, sizeof id);
        },
        [&] {
          int set = 0;  // a failure here is retried by the next acquire
          dlock_permit_semaphore_try_set_permits(semaphore.get(), options.permits, &set);
        });
    if (acquired != DLOCK_OK) {
      std::fprintf(stderr, "acquire: %s\n", describe_status(acquired).c_str());
      return 1;
    }
    section.start_ns = dlock_test::monotonic_ns();
    announce_section(options, cycle);
    std::this_thread::sleep_for(std::chrono::microseconds(section_us(random)));
    section.end_ns = dlock_test::monotonic_ns();
    section.release_status = dlock_permit_semaphore_release(semaphore.get(), id);
    log.append(section);
    if (section.release_status != DLOCK_OK && !options.tolerate_errors) {
      std::fprintf(stderr, "release: %s\n", describe_status(section.release_status).c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int run_permit_loop(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  set_permits(dlock_test::new_permit_semaphore(client.get(), options.name).get(), options.permits);
  dlock_test::SectionLog log(options.log_path);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int index = 0; index < options.threads; ++index) {
    threads.emplace_back([&, index] {
      try {
        failures += permit_cycles(options, client.get(), log, index);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "worker %d: %s\n", static_cast<int>(getpid()), error.what());
        ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return failures.load() == 0 ? 0 : 3;
}

int run_permit_hold(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  const dlock_test::PermitSemaphoreHandle semaphore =
      dlock_test::new_permit_semaphore(client.get(), options.name);
  set_permits(semaphore.get(), options.permits);
  dlock_test::PermitLostRecorder lost;
  lost.attach(semaphore.get());
  char id[DLOCK_PERMIT_ID_SIZE];
  const int acquired =
      dlock_permit_semaphore_acquire(semaphore.get(), -1, options.lease_ms, nullptr, id, sizeof id);
  if (acquired != DLOCK_OK) {
    std::fprintf(stderr, "acquire: %s\n", describe_status(acquired).c_str());
    return 3;
  }
  dlock_test::Section section;
  section.owner = std::to_string(getpid()) + ".0";
  section.start_ns = dlock_test::monotonic_ns();
  say(std::string("acquired ") + id);
  std::this_thread::sleep_for(std::chrono::milliseconds(options.hold_ms));
  section.end_ns = dlock_test::monotonic_ns();
  const int released = dlock_permit_semaphore_release(semaphore.get(), id);
  section.release_status = released;
  say("release " + std::to_string(released));
  if (!options.log_path.empty()) dlock_test::SectionLog(options.log_path).append(section);
  if (released == DLOCK_E_LOST) {
    dlock_test::wait_until([&] { return lost.calls() > 0; }, std::chrono::milliseconds(2000));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a second (wrong) callback
  }
  say("lost_callbacks " + std::to_string(lost.calls()));
  return 0;
}

}  // namespace dlock_worker
