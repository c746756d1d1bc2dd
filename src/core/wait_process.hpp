// The one wait engine: any primitive's waiting call (a lock's, a semaphore's,
// a latch's await, a group's acquire) from its first attempt to its outcome,
// as steps. The engine owns the deadline, the cancel, the client's closing,
// the waiter and the stats; the primitive supplies its attempt (WaitAttempts):
// one try, where its wake-ups come from, and what to do when the wait stops.
//
// A step after the first retries only when the waiter was signalled (a
// message on a watched channel, a subscription confirmed, a reconnect) or the
// attempt's own hint came due (a holder's lease, the earliest permit lease):
// never on a timer. A thread blocked in the call takes the steps itself
// (run()); the client's async runner takes them for the *_async calls
// (submit_wait()).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/async_runner.hpp"
#include "core/cancel.hpp"
#include "core/stats.hpp"
#include "core/waiter.hpp"

namespace dlock {

// A primitive's side of a wait.
class WaitAttempts {
 public:
  struct Outcome {
    bool granted = false;
    // Refused, when the state changes by itself (a lease running out
    // publishes nothing): how soon to look again. nullopt: only news wakes.
    std::optional<std::chrono::milliseconds> retry_after;
  };

  virtual ~WaitAttempts() = default;

  // One try. wait_left_ms: the caller's wait_ms on the first try, then -1
  // (forever) or at least 1. woken_by_message: a message on a watched channel
  // triggered this try. Throws what the primitive's round trip throws.
  virtual Outcome attempt(int64_t wait_left_ms, bool woken_by_message) = 0;
  // After each refused try of a wait, before the next: registers `waiter`
  // where news comes from (a channel; a group: the members that refused).
  // Registered before the retry the confirmation triggers, nothing is missed.
  virtual void watch(Waiter& waiter) = 0;
  // The wait ended, granted or not (or by an error): leave the channels, a
  // server queue. Never throws.
  virtual void stop(bool granted) noexcept = 0;
  // Whether the client (a group: any member's) was closed; throws ClosedError if so.
  virtual bool closed() = 0;
  virtual void throw_if_closed() = 0;
  // Before a retry that news triggered: a pause, so contenders that split a
  // vote spread out (a RedLock's jitter). Zero for most.
  virtual std::chrono::milliseconds pause_before_retry() { return std::chrono::milliseconds(0); }
  // The wait ran out: throws when that is an error rather than "not
  // acquired" (a RedLock that could not reach a majority).
  virtual void ran_out() {}
};

struct WaitSpec {
  int64_t wait_ms = 0;  // 0 one attempt, -1 forever, > 0 at most that long
  Cancel* cancel = nullptr;
  ClientStats* stats = nullptr;  // counts the waits, their durations, hand-offs (nullptr: not counted)
  std::string what;              // names the call in errors and logs: "acquire 'name'"
};

class WaitProcess {
 public:
  struct Step {
    bool done = false;
    bool granted = false;        // when done
    Clock::time_point wake_at;   // when not done: the latest time to step again
  };

  WaitProcess(std::shared_ptr<WaitAttempts> attempts, WaitSpec spec);
  ~WaitProcess();
  WaitProcess(const WaitProcess&) = delete;
  WaitProcess& operator=(const WaitProcess&) = delete;

  // Throws InterruptedError (cancel), ClosedError, and what the attempts throw.
  Step step();
  // The blocking driver: steps on the caller's thread until done; whether granted.
  bool run();
  // What news wakes; the async runner hooks it before the first step.
  Waiter& waiter() { return waiter_; }

 private:
  Step first_step();
  Step next_step();
  Step attempt(Clock::time_point now, bool by_message);
  Step waiting();
  Step finished(bool granted);
  void stop(bool granted) noexcept;
  void sleep_until(Clock::time_point wake_at);
  bool cancelled() const { return spec_.cancel != nullptr && spec_.cancel->triggered(); }
  // How long the caller of a retry will still wait: -1 forever, else at least 1.
  int64_t wait_left_ms(Clock::time_point now) const;
  void count_wait(bool by_release) const;

  std::shared_ptr<WaitAttempts> attempts_;
  const WaitSpec spec_;
  Waiter waiter_;
  bool started_ = false;
  bool waiting_ = false;  // refused once: watching, the cancel attached
  bool stopped_ = false;
  Clock::time_point started_at_;
  Clock::time_point deadline_;
  Clock::time_point wake_at_;     // the last try's hint, or the deadline
  std::optional<std::chrono::milliseconds> hint_;
  std::optional<Clock::time_point> retry_at_;  // news came: retry then (after a pause)
  bool retry_by_release_ = false;
};

// The async driver: steps `process` on `runner` and calls `done` once, on the
// runner's thread, with whether it was granted or with the error it threw.
// Throws ClosedError when the runner was stopped (done is not called).
using WaitDone = std::function<void(bool granted, std::exception_ptr error)>;
void submit_wait(AsyncRunner& runner, std::shared_ptr<WaitProcess> process, WaitDone done);

}  // namespace dlock
