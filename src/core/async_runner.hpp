// The client's thread for operations nobody blocks on (dlock_*_async): it
// steps each job when the job's waiter has news or the time the job asked for
// comes, so thousands of asynchronous waits cost one thread, started on first
// use. Jobs run their round trips on this thread, one at a time.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/holds.hpp"
#include "core/waiter.hpp"

namespace dlock {

class AsyncRunner {
 public:
  // One step of a job: nullopt when the job has finished (it has told its
  // caller), else the latest time to step it again. Must not throw.
  using Step = std::function<std::optional<Clock::time_point>()>;

  AsyncRunner() = default;
  ~AsyncRunner();
  AsyncRunner(const AsyncRunner&) = delete;
  AsyncRunner& operator=(const AsyncRunner&) = delete;

  // Steps `step` on the runner's thread at once, then whenever `waiter` (if
  // any) has news or the time the last step returned comes. The job's own
  // state owns `waiter` and its registrations. Throws ClosedError once
  // stop() was called.
  void submit(Step step, Waiter* waiter = nullptr);

  // Steps every job once more (the client is closed by then, so each one
  // finishes and tells its caller), then ends the thread. Idempotent.
  void stop();

 private:
  struct Job {
    std::atomic<bool> news{true};
    Clock::time_point due = Clock::time_point::max();
    Step step;
  };

  void run();
  void nudge();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::shared_ptr<Job>> jobs_;
  bool nudged_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace dlock
