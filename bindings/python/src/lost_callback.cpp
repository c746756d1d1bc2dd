#include "lost_callback.hpp"

#include "dlock_callback.hpp"

namespace py = pybind11;

namespace dlock_python {

void LostCallback::call(const char* name, uint64_t owner, uint64_t token, void* self) {
  if (!interpreter_running()) return;
  py::gil_scoped_acquire gil;
  const InDlockCallback in_callback;
  try {
    static_cast<LostCallback*>(self)->function_(py::str(name), owner, token);
  } catch (py::error_already_set& error) {
    // Nobody can catch an exception raised on the watchdog thread.
    error.discard_as_unraisable("dlock on_lost callback");
  }
}

}  // namespace dlock_python
