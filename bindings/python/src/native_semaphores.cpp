#include "native_semaphores.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "async_completion.hpp"
#include "dlock.h"
#include "dlock_callback.hpp"
#include "native_cancel.hpp"
#include "native_client.hpp"
#include "off_thread.hpp"
#include "status.hpp"
#include "without_gil.hpp"

namespace py = pybind11;

namespace dlock_python {
namespace {

// A handle of one of the three, made on the Python object of a NativeClient,
// which it keeps alive (not open: close() still closes).
template <typename Handle, int (*make)(dlock_client*, const char*, Handle**), void (*release)(Handle*)>
class NativeHandle {
 public:
  NativeHandle(py::object client, const std::string& name) : client_(std::move(client)) {
    dlock_client* native_client = client_.cast<NativeClient&>().get();
    check_status(make(native_client, c_string(name, "name"), &handle_));
    name_ = name;
  }
  ~NativeHandle() {
    if (InDlockCallback::on_this_thread()) {
      // Dropped inside a callback from dlock (an asynchronous call's
      // completion, a lost callback): freeing waits for that call to return.
      run_off_thread([handle = handle_] { release(handle); });
      return;
    }
    py::gil_scoped_release nogil;
    release(handle_);
  }
  NativeHandle(const NativeHandle&) = delete;
  NativeHandle& operator=(const NativeHandle&) = delete;

  const std::string& name() const { return name_; }

 protected:
  py::object client_;
  Handle* handle_ = nullptr;
  std::string name_;
};

class NativeSemaphore : public NativeHandle<dlock_semaphore, dlock_semaphore_new, dlock_semaphore_free> {
 public:
  using NativeHandle::NativeHandle;

  bool acquire(int permits, int64_t wait_ms, NativeCancel* cancel) {
    const int status =
        without_gil([&] { return dlock_semaphore_acquire(handle_, permits, wait_ms, native_token(cancel)); });
    if (status == DLOCK_NOT_ACQUIRED) return false;
    check_status(status);
    return true;
  }
  // As acquire(), without blocking: on_done(status, 0, message, expiry) on
  // the client's async thread.
  void acquire_async(int permits, int64_t wait_ms, NativeCancel* cancel, py::object on_done) {
    start_async(
        [&](AsyncCompletion* completion) {
          return dlock_semaphore_acquire_async(handle_, permits, wait_ms, native_token(cancel),
                                               &AsyncCompletion::done, completion);
        },
        py::cast(this, py::return_value_policy::reference), cancel, std::move(on_done));
  }
  void release(int permits) {
    check_status(without_gil([&] { return dlock_semaphore_release(handle_, permits); }));
  }
  bool try_set_permits(int permits) {
    int set = 0;
    check_status(without_gil([&] { return dlock_semaphore_try_set_permits(handle_, permits, &set); }));
    return set != 0;
  }
  int64_t available_permits() {
    int64_t out = 0;
    check_status(without_gil([&] { return dlock_semaphore_available_permits(handle_, &out); }));
    return out;
  }
};

// The Python callable called as function(name, permit_id) when a permit is lost.
class PermitLostCallback {
 public:
  explicit PermitLostCallback(py::object function) : function_(std::move(function)) {}

  static void call(const char* name, const char* permit_id, void* self) {
    if (!interpreter_running()) return;
    py::gil_scoped_acquire gil;
    const InDlockCallback in_callback;
    try {
      static_cast<PermitLostCallback*>(self)->function_(py::str(name), py::str(permit_id));
    } catch (py::error_already_set& error) {
      // Nobody can catch an exception raised on the watchdog thread.
      error.discard_as_unraisable("dlock on_lost callback");
    }
  }

 private:
  py::object function_;
};

class NativePermitSemaphore
    : public NativeHandle<dlock_permit_semaphore, dlock_permit_semaphore_new, dlock_permit_semaphore_free> {
 public:
  NativePermitSemaphore(py::object client, const std::string& name, py::object on_lost)
      : NativeHandle(std::move(client), name) {
    if (on_lost.is_none()) return;
    on_lost_ = std::make_unique<PermitLostCallback>(std::move(on_lost));
    check_status(without_gil([&] {
      return dlock_permit_semaphore_set_lost_callback(handle_, &PermitLostCallback::call, on_lost_.get());
    }));
  }
  ~NativePermitSemaphore() {
    // Dropped inside a callback from dlock, perhaps its own lost callback: the
    // base frees the handle on a thread of its own, and the callable stays
    // alive for good rather than die mid-call.
    if (InDlockCallback::on_this_thread()) static_cast<void>(on_lost_.release());
  }

  py::object acquire(int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel) {
    char id[DLOCK_PERMIT_ID_SIZE];
    const int status = without_gil([&] {
      return dlock_permit_semaphore_acquire(handle_, wait_ms, lease_ms, native_token(cancel), id, sizeof id);
    });
    if (status == DLOCK_NOT_ACQUIRED) return py::none();
    check_status(status);
    return py::str(id);
  }
  // As acquire(), without blocking: on_done(status, permit id or "", message,
  // expiry) on the client's async thread.
  void acquire_async(int64_t wait_ms, int64_t lease_ms, NativeCancel* cancel, py::object on_done) {
    start_async(
        [&](AsyncCompletion* completion) {
          return dlock_permit_semaphore_acquire_async(handle_, wait_ms, lease_ms, native_token(cancel),
                                                      &AsyncCompletion::permit_done, completion);
        },
        py::cast(this, py::return_value_policy::reference), cancel, std::move(on_done));
  }
  void release(const std::string& id) {
    const char* permit_id = c_string(id, "permit_id");
    check_status(without_gil([&] { return dlock_permit_semaphore_release(handle_, permit_id); }));
  }
  bool try_release(const std::string& id) {
    const char* permit_id = c_string(id, "permit_id");
    int released = 0;
    check_status(
        without_gil([&] { return dlock_permit_semaphore_try_release(handle_, permit_id, &released); }));
    return released != 0;
  }
  bool try_set_permits(int permits) {
    int set = 0;
    check_status(without_gil([&] { return dlock_permit_semaphore_try_set_permits(handle_, permits, &set); }));
    return set != 0;
  }
  int64_t available_permits() {
    int64_t out = 0;
    check_status(without_gil([&] { return dlock_permit_semaphore_available_permits(handle_, &out); }));
    return out;
  }

 private:
  std::unique_ptr<PermitLostCallback> on_lost_;
};

class NativeCountDownLatch
    : public NativeHandle<dlock_count_down_latch, dlock_count_down_latch_new, dlock_count_down_latch_free> {
 public:
  using NativeHandle::NativeHandle;

  bool try_set_count(int64_t count) {
    int set = 0;
    check_status(without_gil([&] { return dlock_count_down_latch_try_set_count(handle_, count, &set); }));
    return set != 0;
  }
  void count_down() {
    check_status(without_gil([&] { return dlock_count_down_latch_count_down(handle_); }));
  }
  int64_t count() {
    int64_t out = 0;
    check_status(without_gil([&] { return dlock_count_down_latch_get_count(handle_, &out); }));
    return out;
  }
  bool await(int64_t wait_ms, NativeCancel* cancel) {
    const int status =
        without_gil([&] { return dlock_count_down_latch_await(handle_, wait_ms, native_token(cancel)); });
    if (status == DLOCK_NOT_ACQUIRED) return false;
    check_status(status);
    return true;
  }
  // As await(), without blocking: on_done(status, 0, message, expiry) on the
  // client's async thread.
  void await_async(int64_t wait_ms, NativeCancel* cancel, py::object on_done) {
    start_async(
        [&](AsyncCompletion* completion) {
          return dlock_count_down_latch_await_async(handle_, wait_ms, native_token(cancel),
                                                    &AsyncCompletion::done, completion);
        },
        py::cast(this, py::return_value_policy::reference), cancel, std::move(on_done));
  }
};

}  // namespace

void bind_native_semaphores(py::module_& module) {
  py::class_<NativeSemaphore>(module, "Semaphore")
      .def(py::init<py::object, const std::string&>(), py::arg("client"), py::arg("name"))
      .def_property_readonly("name", &NativeSemaphore::name)
      .def("acquire", &NativeSemaphore::acquire, py::arg("permits"), py::arg("wait_ms"),
           py::arg("cancel") = nullptr)
      .def("acquire_async", &NativeSemaphore::acquire_async, py::arg("permits"), py::arg("wait_ms"),
           py::arg("cancel"), py::arg("on_done"))
      .def("release", &NativeSemaphore::release, py::arg("permits"))
      .def("try_set_permits", &NativeSemaphore::try_set_permits, py::arg("permits"))
      .def("available_permits", &NativeSemaphore::available_permits);
  py::class_<NativePermitSemaphore>(module, "PermitSemaphore")
      .def(py::init<py::object, const std::string&, py::object>(), py::arg("client"), py::arg("name"),
           py::arg("on_lost") = py::none())
      .def_property_readonly("name", &NativePermitSemaphore::name)
      .def("acquire", &NativePermitSemaphore::acquire, py::arg("wait_ms"), py::arg("lease_ms"),
           py::arg("cancel") = nullptr)
      .def("acquire_async", &NativePermitSemaphore::acquire_async, py::arg("wait_ms"), py::arg("lease_ms"),
           py::arg("cancel"), py::arg("on_done"))
      .def("release", &NativePermitSemaphore::release, py::arg("permit_id"))
      .def("try_release", &NativePermitSemaphore::try_release, py::arg("permit_id"))
      .def("try_set_permits", &NativePermitSemaphore::try_set_permits, py::arg("permits"))
      .def("available_permits", &NativePermitSemaphore::available_permits);
  py::class_<NativeCountDownLatch>(module, "CountDownLatch")
      .def(py::init<py::object, const std::string&>(), py::arg("client"), py::arg("name"))
      .def_property_readonly("name", &NativeCountDownLatch::name)
      .def("try_set_count", &NativeCountDownLatch::try_set_count, py::arg("count"))
      .def("count_down", &NativeCountDownLatch::count_down)
      .def("count", &NativeCountDownLatch::count)
      .def("await_", &NativeCountDownLatch::await, py::arg("wait_ms"), py::arg("cancel") = nullptr)
      .def("await_async", &NativeCountDownLatch::await_async, py::arg("wait_ms"), py::arg("cancel"),
           py::arg("on_done"));
}

}  // namespace dlock_python
