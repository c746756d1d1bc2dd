// The reentrant lock's side of a wait (core/wait_process.hpp), built once
// ReentrantLock::reenter() found no hold to re-enter: settling the owner's
// pending request, the backend's wait for its lock kind (core/lock_ops.hpp:
// the tries, where news comes from, leaving the queue when it stops without
// the lock), recording the grant with the watchdog through the client's
// Holds, and a withdrawal after a connection error. The engine takes it on
// the caller's thread for dlock_lock_acquire, on the client's async runner
// for dlock_lock_acquire_async.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/lock_ops.hpp"
#include "core/wait_process.hpp"
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
  int64_t holder_ttl_ms() const { return last_.retry_after ? last_.retry_after->count() : -1; }

  // WaitAttempts. attempt() throws ClosedError, ConnectionError,
  // ProtocolError, LostError.
  Outcome attempt(int64_t wait_left_ms, bool woken_by_message) override;
  void watch(Waiter& waiter) override;
  // Ends the backend's wait; without the lock, it abandons it first.
  void stop(bool granted) noexcept override;
  bool closed() override { return lock_.core_.closed(); }
  void throw_if_closed() override { lock_.core_.throw_if_closed(); }

 private:
  // The first attempt's start: settles the owner's pending request (a
  // release left pending, a withdrawal), works out the field and the lease,
  // and begins the backend's wait.
  void start();

  ReentrantLock lock_;
  const AcquireRequest request_;
  std::string field_;
  int64_t lease_ms_ = 0;
  LockWait::Try last_{};
  uint64_t token_ = 0;
  std::unique_ptr<LockWait> wait_;
  // While the owner holds a non-reentrant lock it asks again for: the news of
  // any release of the name, its own among them.
  std::unique_ptr<WaitWatch> own_release_;
};

}  // namespace dlock
