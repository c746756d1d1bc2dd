#include "contention_run.hpp"

#include <sys/wait.h>

#include "worker_launcher.hpp"

namespace dlock_test {

namespace {

std::string kind_of(const ContentionSetup& setup, int index) {
  if (setup.kind != "mixed") return setup.kind;
  return index % 2 == 0 ? "fair" : "lock";
}

}  // namespace

ContentionRun::ContentionRun(const ContentionSetup& setup) {
  for (int index = 0; index < setup.processes; ++index) {
    workers_.push_back(start_worker({"--mode",
                                     "cycles",
                                     "--url",
                                     setup.url,
                                     "--name",
                                     setup.name,
                                     "--kind",
                                     kind_of(setup, index),
                                     "--log",
                                     dir_.file("sections"),
                                     "--store",
                                     dir_.file("store"),
                                     "--threads",
                                     std::to_string(setup.threads),
                                     "--cycles",
                                     std::to_string(setup.cycles),
                                     "--lease-ms",
                                     std::to_string(setup.lease_ms),
                                     "--watchdog-timeout-ms",
                                     std::to_string(setup.watchdog_timeout_ms),
                                     "--min-sleep-us",
                                     std::to_string(setup.min_sleep_us),
                                     "--max-sleep-us",
                                     std::to_string(setup.max_sleep_us)},
                                    dir_.file("worker-" + std::to_string(index) + ".out")));
  }
}

std::string ContentionRun::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string failures;
  for (size_t index = 0; index < workers_.size(); ++index) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    std::optional<int> status = workers_[index]->wait_for(std::max(left, std::chrono::milliseconds(0)));
    const std::string output = read_text_file(dir_.file("worker-" + std::to_string(index) + ".out"));
    if (!status) {
      workers_[index]->kill_and_reap();
      failures += "worker " + std::to_string(index) + " did not finish in time\n" + output;
    } else if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
      failures += "worker " + std::to_string(index) + " " + describe_wait_status(*status) + "\n" + output;
    }
  }
  return failures;
}

}  // namespace dlock_test
