// The Python callable behind a lock's lost-lock callback, called as
// function(name, owner, fencing_token). dlock calls it on the client's
// watchdog thread, which is not a Python thread, or in the release that found
// the loss.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace dlock_python {

class LostCallback {
 public:
  explicit LostCallback(pybind11::object function) : function_(std::move(function)) {}

  // A dlock_lost_fn; `self` is a LostCallback.
  static void call(const char* name, uint64_t owner, uint64_t token, void* self);

 private:
  pybind11::object function_;
};

}  // namespace dlock_python
