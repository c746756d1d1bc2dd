#include "native_cancel.hpp"

#include "status.hpp"

namespace py = pybind11;

namespace dlock_python {

NativeCancel::NativeCancel() { check_status(dlock_cancel_new(&cancel_)); }

NativeCancel::~NativeCancel() { dlock_cancel_free(cancel_); }

void NativeCancel::trigger() { check_status(dlock_cancel_trigger(cancel_)); }

void NativeCancel::reset() { check_status(dlock_cancel_reset(cancel_)); }

void bind_native_cancel(py::module_& module) {
  py::class_<NativeCancel>(module, "Cancel")
      .def(py::init<>())
      .def("trigger", &NativeCancel::trigger)
      .def("reset", &NativeCancel::reset);
}

}  // namespace dlock_python
