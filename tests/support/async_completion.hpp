// One asynchronous call's outcome (a dlock_done_fn or dlock_permit_done_fn),
// as a future, and the process's thread count: what the async tests check.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <string>

namespace dlock_test {

struct Outcome {
  int status = 0;
  uint64_t token = 0;
  std::string permit_id;  // a permit semaphore's
  std::string message;
  int64_t at_ms = 0;  // monotonic_ms() when the callback ran
};

class Completion {
 public:
  // A dlock_done_fn; ctx is the Completion.
  static void on_done(int status, uint64_t token, const char* message, void* ctx);
  // A dlock_permit_done_fn; ctx is the Completion.
  static void on_permit(int status, const char* permit_id, const char* message, void* ctx);
  std::future<Outcome> future() { return promise_.get_future(); }
  int calls() const { return calls_.load(); }

 private:
  void complete(Outcome outcome);

  std::promise<Outcome> promise_;
  std::atomic<int> calls_{0};
};

// The threads of this process now (/proc/self/task).
int thread_count();

}  // namespace dlock_test
