// The reentrant lock's side of a wait (core/wait_process.hpp), built once
// ReentrantLock::reenter() found no hold to re-enter: its attempt (the
// script, recording the grant with the watchdog through the client's Holds,
// a withdrawal after a connection error), the channels and the server
// queue's heartbeat it waits with, and leaving the queue when it stops
// without the lock. The engine takes it on the caller's thread for
// dlock_lock_acquire, on the client's async runner for dlock_lock_acquire_async.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/wait_heartbeat.hpp"
#include "core/wait_process.hpp"
#include "core/wait_registration.hpp"
#include "primitives/lock/reentrant_lock.hpp"

namespace dlock {

class AcquireProcess final : public WaitAttempts {
 public:
  AcquireProcess(ReentrantLock lock, AcquireRequest request);
  AcquireProcess(const AcquireProcess&) = delete;
  AcquireProcess& operator=(const AcquireProcess&) = delete;

  // The wait's deadline, cancel and stats, for the engine.
  WaitSpec spec() const;
  // After a grant: the hold's token.
  uint64_t token() const { return token_; }
  // After an attempt the lock refused: the holder's remaining lease (-1 none).
  int64_t holder_ttl_ms() const { return last_.value; }

  // WaitAttempts. attempt() throws ClosedError, ConnectionError,
  // ProtocolError, LostError.
  Outcome attempt(int64_t wait_left_ms, bool woken_by_message) override;
  void watch(Waiter& waiter) override;
  // Leaves the subscriber, the heartbeat and, without the lock, the server's
  // queue (the fair lock's, the read-write lock's write intent).
  void stop(bool granted) noexcept override;
  bool closed() override { return lock_.core_.closed(); }
  void throw_if_closed() override { lock_.core_.throw_if_closed(); }

 private:
  // The first attempt's start: settles the owner's pending request (a
  // release left pending, a withdrawal), works out the field and the lease.
  void start();
  Outcome granted();

  ReentrantLock lock_;
  const AcquireRequest request_;
  std::string field_;
  int64_t lease_ms_ = 0;
  ReentrantLock::Attempt last_{};
  uint64_t token_ = 0;
  bool started_ = false;
  std::string channel_;  // the registration refers to it
  Subscriber::Hearing hearing_;  // the channel's, before the attempt that preceded the registration
  bool queued_ = false;  // in the server's queue (fair lock waiter, lock waiting owner, writer intent)
  std::optional<WaitRegistration> registration_;
  std::optional<WaitRegistration> other_releases_;  // a queued waiter's: the lock's own channel
  std::optional<HeartbeatRegistration> heartbeat_;
};

}  // namespace dlock
