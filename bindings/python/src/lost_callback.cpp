#include "lost_callback.hpp"

namespace py = pybind11;

namespace dlock_python {

namespace {

thread_local bool in_call = false;

// A thread that takes the GIL while the interpreter shuts down is ended on
// the spot; the watchdog thread must not be, so late notices are dropped.
bool interpreter_running() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

}  // namespace

void LostCallback::call(const char* name, uint64_t owner, uint64_t token, void* self) {
  if (!interpreter_running()) return;
  py::gil_scoped_acquire gil;
  in_call = true;
  try {
    static_cast<LostCallback*>(self)->function_(py::str(name), owner, token);
  } catch (py::error_already_set& error) {
    // Nobody can catch an exception raised on the watchdog thread.
    error.discard_as_unraisable("dlock on_lost callback");
  }
  in_call = false;
}

bool LostCallback::running_on_this_thread() { return in_call; }

}  // namespace dlock_python
