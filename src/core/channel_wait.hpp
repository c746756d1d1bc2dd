// A blocking wait for a primitive whose waiters sleep on a pub/sub channel
// until a message says the state changed (a semaphore's release, a latch
// reaching zero): attempt, and while the attempt fails, sleep until the
// channel speaks, the attempt's own hint (a permit's lease ends), the wait's
// end, a cancel or the client's closing. Never a timer-driven retry.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "core/cancel.hpp"
#include "core/client_core.hpp"
#include "core/wait_registration.hpp"
#include "core/waiter.hpp"

namespace dlock {

// One attempt's outcome: a result, or none and, when the state will change
// by itself (a lease running out publishes nothing), how soon to look again.
template <typename Result>
struct ChannelAttempt {
  std::optional<Result> result;
  std::optional<std::chrono::milliseconds> retry_after;
};

// wait_ms: 0 one attempt, -1 forever, > 0 at most that long. `attempt` is
// called with whether a message on the channel woke it (false for the first
// attempt, and after a subscription confirmation or a timer). Returns the
// first attempt's result, or nullopt when the wait ran out. Throws
// InterruptedError (cancel), ClosedError, and what `attempt` throws.
template <typename Result, typename Attempt>
std::optional<Result> wait_on_channel(ClientCore& core, const std::string& channel, int64_t wait_ms,
                                      Cancel* cancel, const std::string& what, Attempt&& attempt) {
  core.throw_if_closed();
  // "Forever" is a year: far enough, and no overflow in the clock's arithmetic.
  const Clock::time_point deadline =
      Clock::now() + (wait_ms < 0 ? std::chrono::hours(24 * 366) : std::chrono::milliseconds(wait_ms));
  ChannelAttempt<Result> last = attempt(false);
  if (last.result || wait_ms == 0) return last.result;
  ClientStats::count(core.stats().waits);
  Waiter waiter;
  waiter.every_message = true;
  // Subscribed before the next attempt, which the confirmation triggers: a
  // change in between is not missed.
  const WaitRegistration registration(core.subscriber(), channel, waiter, cancel);
  for (;;) {
    Clock::time_point wake_at = deadline;
    if (last.retry_after) wake_at = std::min(wake_at, Clock::now() + *last.retry_after);
    {
      std::unique_lock<std::mutex> lock(waiter.mutex);
      waiter.wake.wait_until(lock, wake_at, [&] {
        return waiter.signalled || core.closed() || (cancel != nullptr && cancel->triggered());
      });
    }
    if (cancel != nullptr && cancel->triggered()) throw InterruptedError(what + ": cancelled");
    core.throw_if_closed();
    const Waiter::Signal signal = waiter.take_signal();
    const bool signalled = signal.came;
    const Clock::time_point now = Clock::now();
    if (!signalled && now < wake_at) continue;
    if (!signalled && now >= deadline) return std::nullopt;
    last = attempt(signal.by_release);
    if (last.result) return last.result;
    if (Clock::now() >= deadline) return std::nullopt;
  }
}

}  // namespace dlock
