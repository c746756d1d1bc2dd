// dlock._dlock: the C ABI (include/dlock.h) for the pure-Python package
// `dlock`. User code imports `dlock`, never this module.
#include <pybind11/pybind11.h>

#include "dlock.h"
#include "native_cancel.hpp"
#include "native_client.hpp"
#include "native_lock.hpp"
#include "native_log.hpp"
#include "native_stats.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_dlock, module) {
  module.doc() = "Private binding of dlock's C ABI; use the `dlock` package.";

  module.attr("OK") = DLOCK_OK;
  module.attr("NOT_ACQUIRED") = DLOCK_NOT_ACQUIRED;
  module.attr("E_INVALID") = DLOCK_E_INVALID;
  module.attr("E_CONNECTION") = DLOCK_E_CONNECTION;
  module.attr("E_NOT_OWNER") = DLOCK_E_NOT_OWNER;
  module.attr("E_LOST") = DLOCK_E_LOST;
  module.attr("E_PROTOCOL") = DLOCK_E_PROTOCOL;
  module.attr("E_AUTH") = DLOCK_E_AUTH;
  module.attr("E_INTERRUPTED") = DLOCK_E_INTERRUPTED;
  module.attr("E_CLOSED") = DLOCK_E_CLOSED;
  module.attr("E_NOMEM") = DLOCK_E_NOMEM;
  module.attr("E_UNSUPPORTED") = DLOCK_E_UNSUPPORTED;
  module.attr("NAME_MAX") = DLOCK_NAME_MAX;

  module.def("version", &dlock_version);
  module.def("strerror", &dlock_strerror, py::arg("status"));
  module.def("thread_owner", &dlock_thread_owner);
  // The package's status -> exception table, called as factory(status, message).
  module.attr("_error_factory") = py::none();
  module.def(
      "set_error_factory",
      [](py::object factory) {
        py::module_::import("dlock._dlock").attr("_error_factory") = std::move(factory);
      },
      py::arg("factory"));

  dlock_python::bind_native_cancel(module);
  dlock_python::bind_native_client(module);
  dlock_python::bind_native_lock(module);
  dlock_python::bind_native_log(module);
  dlock_python::bind_native_stats(module);
}
