// dlock._dlock: the C ABI (include/dlock.h) for the pure-Python package
// `dlock`. User code imports `dlock`, never this module.
#include <pybind11/pybind11.h>

#include "dlock.h"
#include "native_cancel.hpp"
#include "native_client.hpp"
#include "native_election.hpp"
#include "native_lock.hpp"
#include "native_lock_group.hpp"
#include "native_log.hpp"
#include "native_semaphores.hpp"
#include "native_stats.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_dlock, module) {
  module.doc() = "Private binding of dlock's C ABI; use the `dlock` package.";

  // One constant per status of dlock.h (OK, NOT_ACQUIRED, E_INVALID, ...),
  // from the header's own list: Python never restates a code.
#define DLOCK_EXPORT_STATUS(name) module.attr(#name) = DLOCK_##name;
  DLOCK_STATUS_LIST(DLOCK_EXPORT_STATUS)
#undef DLOCK_EXPORT_STATUS
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
  dlock_python::bind_native_election(module);
  dlock_python::bind_native_lock(module);
  dlock_python::bind_native_lock_group(module);
  dlock_python::bind_native_log(module);
  dlock_python::bind_native_semaphores(module);
  dlock_python::bind_native_stats(module);
}
