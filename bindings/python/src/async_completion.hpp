// One asynchronous dlock call (dlock_lock_acquire_async, ..._release_async,
// the semaphores', the latch's and the lock groups' waits) seen from Python:
// it keeps alive what dlock needs until `done` has run (the handle's Python
// object, the cancel token's), then hands the outcome to a Python callable,
// called as on_done(status, value, message, expiry) on the client's async
// thread with the GIL held. `value` is the fencing token (0 when the call has
// none), or a leased permit's id ("" unless granted).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>

namespace dlock_python {

class NativeCancel;

class AsyncCompletion {
 public:
  // `account` (may be empty) sees the status first, without the GIL, even
  // when Python is gone: a lock handle's count of open holds must stay right.
  AsyncCompletion(std::function<void(int status)> account, pybind11::object keep_alive,
                  pybind11::object on_done);

  // A dlock_done_fn; `self` is an AsyncCompletion made with new, which it
  // deletes.
  static void done(int status, uint64_t token, const char* message, void* self);
  // The same as a dlock_permit_done_fn.
  static void permit_done(int status, const char* permit_id, const char* message, void* self);

 private:
  static void finish(int status, const char* message, void* self,
                     const std::function<pybind11::object()>& value);

  std::function<void(int status)> account_;
  pybind11::object keep_alive_;
  pybind11::object on_done_;
};

// Starts an asynchronous call: start(completion) hands the completion to dlock
// as the call's ctx and returns dlock's status. The completion keeps `handle`
// (the Python object of the handle the call runs on) and the object of
// `cancel` (may be null) alive until `done`. A status other than DLOCK_OK
// means `done` will never run: the completion is freed and the error raised.
// The caller keeps the GIL: `done` needs it, so it cannot run before the
// completion is handed over.
void start_async(const std::function<int(AsyncCompletion* completion)>& start, pybind11::object handle,
                 NativeCancel* cancel, pybind11::object on_done,
                 std::function<void(int status)> account = {});

}  // namespace dlock_python
