#include "async_completion.hpp"

#include <cstring>
#include <memory>

#include "dlock.h"
#include "dlock_callback.hpp"
#include "native_cancel.hpp"
#include "status.hpp"

namespace py = pybind11;

namespace dlock_python {
namespace {

// A C string from dlock as Python text; "replace" so that no text can fail
// here (an error's text names the lock).
py::str text_of(const char* text) {
  py::str decoded = py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(std::strlen(text)), "replace"));
  if (!decoded) throw py::error_already_set();
  return decoded;
}

}  // namespace

AsyncCompletion::AsyncCompletion(std::function<void(int status)> account, py::object keep_alive,
                                 py::object on_done)
    : account_(std::move(account)), keep_alive_(std::move(keep_alive)), on_done_(std::move(on_done)) {}

void AsyncCompletion::done(int status, uint64_t token, const char* message, void* self) {
  finish(status, message, self, [token] { return py::int_(token); });
}

void AsyncCompletion::permit_done(int status, const char* permit_id, const char* message, void* self) {
  finish(status, message, self, [permit_id] { return text_of(permit_id); });
}

void AsyncCompletion::finish(int status, const char* message, void* self,
                             const std::function<py::object()>& value) {
  auto* completion = static_cast<AsyncCompletion*>(self);
  if (completion->account_) completion->account_(status);
  // Without an interpreter the Python objects can be neither called nor
  // dropped: the completion is left behind with them.
  if (!interpreter_running()) return;
  py::gil_scoped_acquire gil;
  const InDlockCallback in_callback;
  // Dropped under the GIL, inside the callback scope: the last reference to
  // the handle may go here, and it must then not be freed on this thread.
  const std::unique_ptr<AsyncCompletion> owned(completion);
  try {
    // Read on the thread the call failed on, as dlock_done_fn allows.
    const bool expiry = status < 0 && dlock_last_error_is_expiry() == 1;
    completion->on_done_(status, value(), text_of(message), expiry);
  } catch (py::error_already_set& error) {
    // Nobody can catch an exception raised on the async thread.
    error.discard_as_unraisable("dlock asynchronous call");
  }
}

void start_async(const std::function<int(AsyncCompletion* completion)>& start, py::object handle,
                 NativeCancel* cancel, py::object on_done, std::function<void(int status)> account) {
  py::object cancel_object =
      cancel == nullptr ? py::none() : py::cast(cancel, py::return_value_policy::reference);
  auto completion = std::make_unique<AsyncCompletion>(
      std::move(account), py::make_tuple(std::move(handle), std::move(cancel_object)), std::move(on_done));
  check_status(start(completion.get()));
  static_cast<void>(completion.release());
}

}  // namespace dlock_python
