#include "single_hold.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <thread>

#include "dlock_handles.hpp"
#include "fenced_store.hpp"
#include "lock_side.hpp"
#include "lost_recorder.hpp"
#include "monotonic_clock.hpp"
#include "section_log.hpp"
#include "wait_until.hpp"

namespace dlock_worker {
namespace {

// How long a holder whose release reported the loss waits for the callback, and
// then for a second (wrong) one.
constexpr auto kCallbackWait = std::chrono::milliseconds(2000);
constexpr auto kDuplicateCallbackWait = std::chrono::milliseconds(300);

void sleep_until_monotonic(int64_t deadline_ns) {
  timespec deadline{};
  deadline.tv_sec = static_cast<time_t>(deadline_ns / 1000000000);
  deadline.tv_nsec = static_cast<long>(deadline_ns % 1000000000);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
  }
}

void say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

}  // namespace

int run_single_hold(const WorkerOptions& options) {
  const dlock_test::ClientHandle client = dlock_test::open_client(options.url, client_options(options));
  const dlock_test::LockHandle lock = open_side(client.get(), options.name, options.kind);
  const dlock_test::FencedStore store(options.store_path);
  dlock_test::LostRecorder lost;
  lost.attach(lock.get());

  dlock_test::Section section;
  section.owner = section_owner(options.kind, 0);
  const int acquired = dlock_lock_acquire(lock.get(), -1, options.lease_ms, &section.token);
  if (acquired != DLOCK_OK) {
    std::fprintf(stderr, "acquire: %s\n", dlock_test::describe_status(acquired).c_str());
    return 3;
  }
  section.start_ns = dlock_test::monotonic_ns();
  say("acquired " + std::to_string(section.token));

  sleep_until_monotonic(section.start_ns + options.hold_ms * 1000000);
  section.write_accepted = store.write(section.token, store.read() + 1);
  section.end_ns = dlock_test::monotonic_ns();
  say(std::string("write ") + (section.write_accepted ? "accepted" : "stale"));

  section.release_status = dlock_lock_release(lock.get());
  say("release " + std::to_string(section.release_status));
  if (section.release_status == DLOCK_E_LOST) {
    dlock_test::wait_until([&] { return lost.calls() > 0; }, kCallbackWait);
    std::this_thread::sleep_for(kDuplicateCallbackWait);
  }
  say("lost_callbacks " + std::to_string(lost.calls()));
  if (!options.log_path.empty()) dlock_test::SectionLog(options.log_path).append(section);
  return 0;
}

}  // namespace dlock_worker
