// dlock_lock as a Python object. Every method takes the owner explicitly:
// the package decides whether the caller is a thread or an asyncio task.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "dlock.h"
#include "lost_callback.hpp"

namespace dlock_python {

class NativeCancel;

class NativeLock {
 public:
  // `client` is the Python object of a NativeClient. `kind`: "lock" the
  // reentrant lock, "fair" the fair lock, "read" or "write" a side of the
  // read-write lock `name`.
  NativeLock(pybind11::object client, const pybind11::str& name, pybind11::object on_lost,
             const std::string& kind = "lock");
  ~NativeLock();
  NativeLock(const NativeLock&) = delete;
  NativeLock& operator=(const NativeLock&) = delete;

  std::string name() const { return dlock_lock_name(lock_); }
  dlock_lock* get() const { return lock_; }
  // The fencing token, or None when the wait ran out.
  pybind11::object acquire(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel);
  // dlock_lock_try_before_wait_owner(): the token, or None (taken, or another's turn).
  pybind11::object try_before_wait(uint64_t owner, int64_t lease_ms);
  void release(uint64_t owner);
  // As acquire() and release(), without blocking: the outcome goes to
  // on_done(status, token, message) on the client's async thread. The lock
  // and `cancel` stay alive until then.
  void acquire_async(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel,
                     pybind11::object on_done);
  void release_async(uint64_t owner, pybind11::object on_done);
  void extend(uint64_t owner, int64_t lease_ms);
  // dlock_lock_release_keeping_owner(): counts as a release.
  void release_keeping(uint64_t owner, int64_t keep_ms);
  // dlock_lock_inspect(): (ttl_ms, last token or None, [(holder id bytes, hold count)]).
  pybind11::tuple inspect();
  // dlock_lock_count_attempt(): the attempt's number, or None past the limit.
  pybind11::object count_attempt(const std::string& period_id, int64_t expire_in_ms, int64_t max_attempts);
  bool force_release();
  bool is_locked();
  bool is_held(uint64_t owner);
  int hold_count(uint64_t owner);
  uint64_t fencing_token(uint64_t owner);
  int64_t ttl_ms();
  // dlock_rwlock_set_writer_preference(): a write side's handle only.
  void set_writer_preference(bool enabled);
  // Grants minus releases through this handle (holds_ below); no dlock call.
  int open_holds() const { return holds_.load(); }

 private:
  // Runs acquire(&token) without the GIL: the token, or None when not acquired.
  template <typename Acquire>
  pybind11::object token_of(Acquire&& acquire);
  // Keep holds_ in step with the outcome of an acquire or a release.
  void count_acquire(int status);
  void count_release(int status);

  // A lock keeps its client object alive (not open: close() still closes). A
  // reference held here rather than pybind11's keep_alive call policy, which
  // some pybind11 releases apply even after a failed argument conversion.
  pybind11::object client_;
  dlock_lock* lock_ = nullptr;
  std::unique_ptr<LostCallback> on_lost_;
  // Grants minus releases through this handle: while positive, freeing the
  // handle releases holds over the network, so it is done off-thread.
  std::atomic<int> holds_{0};
};

void bind_native_lock(pybind11::module_& module);

}  // namespace dlock_python
