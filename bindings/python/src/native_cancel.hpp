// dlock_cancel as a Python object: cuts a blocking acquire short from
// another thread (Ctrl-C in the waiting thread, asyncio task cancellation).
#pragma once

#include <pybind11/pybind11.h>

#include "dlock.h"

namespace dlock_python {

class NativeCancel {
 public:
  NativeCancel();
  ~NativeCancel();
  NativeCancel(const NativeCancel&) = delete;
  NativeCancel& operator=(const NativeCancel&) = delete;

  void trigger();
  void reset();
  dlock_cancel* get() const { return cancel_; }

 private:
  dlock_cancel* cancel_ = nullptr;
};

// The token's dlock_cancel, or null for no token.
inline dlock_cancel* native_token(NativeCancel* cancel) { return cancel == nullptr ? nullptr : cancel->get(); }

void bind_native_cancel(pybind11::module_& module);

}  // namespace dlock_python
