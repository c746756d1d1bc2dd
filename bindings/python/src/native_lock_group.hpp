// dlock_multilock and dlock_redlock as one Python object, `_dlock.LockGroup`:
// the package's MultiLock and RedLock differ only in which C calls they make.
// Every method takes the owner explicitly, as the lock's do.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

#include "dlock.h"
#include "lost_callback.hpp"

namespace dlock_python {

class NativeCancel;

class NativeLockGroup {
 public:
  // `locks`: _dlock.Lock objects; `majority`: a RedLock, else a MultiLock.
  NativeLockGroup(const pybind11::list& locks, bool majority, pybind11::object on_lost);
  ~NativeLockGroup();
  NativeLockGroup(const NativeLockGroup&) = delete;
  NativeLockGroup& operator=(const NativeLockGroup&) = delete;

  // The grant's validity in ms (0 for a MultiLock), or None when the wait ran out.
  pybind11::object acquire(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel);
  // As acquire(), without blocking: on_done(status, 0, message, expiry) on
  // the async thread of the first member's client. The group and `cancel`
  // stay alive until then.
  void acquire_async(uint64_t owner, int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel,
                     pybind11::object on_done);
  void release(uint64_t owner);
  int hold_count(uint64_t owner);
  // Held and still valid: no member lost beyond what the group allows, the lease not over.
  bool is_held(uint64_t owner);
  // RedLock: the owner's remaining validity in ms (0 when not held); MultiLock: unsupported.
  int64_t validity_ms(uint64_t owner);

 private:
  pybind11::list locks_;  // keeps the member handles' Python objects alive
  dlock_multilock* multi_ = nullptr;
  dlock_redlock* red_ = nullptr;
  std::unique_ptr<LostCallback> on_lost_;
};

void bind_native_lock_group(pybind11::module_& module);

}  // namespace dlock_python
