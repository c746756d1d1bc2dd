#include "async_completion.hpp"

#include <cstring>
#include <memory>

#include "dlock.h"
#include "dlock_callback.hpp"

namespace py = pybind11;

namespace dlock_python {

AsyncCompletion::AsyncCompletion(std::function<void(int status)> account, py::object keep_alive,
                                 py::object on_done)
    : account_(std::move(account)), keep_alive_(std::move(keep_alive)), on_done_(std::move(on_done)) {}

void AsyncCompletion::done(int status, uint64_t token, const char* message, void* self) {
  auto* completion = static_cast<AsyncCompletion*>(self);
  completion->account_(status);
  // Without an interpreter the Python objects can be neither called nor
  // dropped: the completion is left behind with them.
  if (!interpreter_running()) return;
  py::gil_scoped_acquire gil;
  const InDlockCallback in_callback;
  // Dropped under the GIL, inside the callback scope: the last reference to
  // the lock may go here, and its handle must then not be freed on this thread.
  const std::unique_ptr<AsyncCompletion> owned(completion);
  try {
    // An error's text names the lock: "replace" so that no text can fail here.
    py::str text = py::reinterpret_steal<py::str>(
        PyUnicode_DecodeUTF8(message, static_cast<Py_ssize_t>(std::strlen(message)), "replace"));
    if (!text) throw py::error_already_set();
    // Read on the thread the call failed on, as dlock_done_fn allows.
    const bool expiry = status < 0 && dlock_last_error_is_expiry() == 1;
    completion->on_done_(status, token, text, expiry);
  } catch (py::error_already_set& error) {
    // Nobody can catch an exception raised on the async thread.
    error.discard_as_unraisable("dlock asynchronous call");
  }
}

}  // namespace dlock_python
