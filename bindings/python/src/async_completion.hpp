// One asynchronous dlock call (dlock_lock_acquire_async, ..._release_async)
// seen from Python: it keeps alive what dlock needs until `done` has run (the
// lock's Python object, the cancel token's), then hands the outcome to a
// Python callable, called as on_done(status, token, message) on the client's
// async thread with the GIL held.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>

namespace dlock_python {

class AsyncCompletion {
 public:
  // `account` sees the status first, without the GIL, even when Python is
  // gone: the handle's count of open holds must stay right.
  AsyncCompletion(std::function<void(int status)> account, pybind11::object keep_alive,
                  pybind11::object on_done);

  // A dlock_done_fn; `self` is an AsyncCompletion made with new, which it
  // deletes.
  static void done(int status, uint64_t token, const char* message, void* self);

 private:
  std::function<void(int status)> account_;
  pybind11::object keep_alive_;
  pybind11::object on_done_;
};

}  // namespace dlock_python
