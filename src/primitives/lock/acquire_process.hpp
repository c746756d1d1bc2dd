// One acquire of the reentrant lock from its first attempt to its outcome, as
// steps. A thread blocked in dlock_lock_acquire takes them itself, so a
// hand-off costs no extra thread hop; the client's async runner takes them
// for dlock_lock_acquire_async. A step after the first retries only when the
// waiter was signalled (a release message, the subscription confirmed, a
// reconnect) or the holder's lease has run out: never on a timer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/wait_heartbeat.hpp"
#include "core/wait_registration.hpp"
#include "core/waiter.hpp"
#include "primitives/lock/reentrant_lock.hpp"

namespace dlock {

class AcquireProcess {
 public:
  struct Step {
    bool done = false;
    std::optional<uint64_t> token;  // when done: the hold's token, or nullopt when the wait ran out
    Clock::time_point wake_at;      // when not done: the latest time to step again
  };

  AcquireProcess(ReentrantLock lock, AcquireRequest request)
      : lock_(std::move(lock)), request_(std::move(request)) {}
  AcquireProcess(const AcquireProcess&) = delete;
  AcquireProcess& operator=(const AcquireProcess&) = delete;

  // Throws InterruptedError, ClosedError, ConnectionError, ProtocolError, LostError.
  Step step();

  // What news wakes; the blocking driver sleeps on it with sleep_until().
  Waiter& waiter() { return waiter_; }
  // Sleeps until `wake_at`, a signal, a cancel or the client's closing.
  void sleep_until(Clock::time_point wake_at);
  // After an attempt the lock refused: the holder's remaining lease (-1 none).
  int64_t holder_ttl_ms() const { return last_.value; }

 private:
  Step first_step();
  Step next_step();
  Step waiting();
  Step granted(const ReentrantLock::Attempt& grant);
  // Leaves the subscriber, the heartbeat and, without the lock, the server's
  // queue (the fair lock's, the read-write lock's write intent).
  void stop_waiting(bool granted);
  // How long the caller of a retry will still wait: -1 forever, else at least 1.
  int64_t wait_left_ms(Clock::time_point now) const;

  ReentrantLock lock_;
  const AcquireRequest request_;
  std::string field_;
  int64_t lease_ms_ = 0;
  Clock::time_point started_at_;
  Clock::time_point deadline_;
  Clock::time_point wake_at_;
  ReentrantLock::Attempt last_{};
  bool started_ = false;
  std::string channel_;  // the registration refers to it
  bool queued_ = false;  // in the server's queue (fair lock waiter, lock waiting owner, writer intent)
  Waiter waiter_;        // declared before the registrations, which must end first
  std::optional<WaitRegistration> registration_;
  std::optional<WaitRegistration> other_releases_;  // a queued waiter's: the lock's own channel
  std::optional<HeartbeatRegistration> heartbeat_;
};

}  // namespace dlock
