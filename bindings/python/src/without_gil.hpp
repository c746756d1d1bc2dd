// Runs a dlock call without the GIL: it may wait on the network, and on the
// watchdog thread, which needs the GIL to deliver a lost-hold callback.
// `call` must not raise nor touch a Python object: convert and check every
// argument (c_string() raises through Python) before, and the status after.
#pragma once

#include <pybind11/pybind11.h>

namespace dlock_python {

template <typename Call>
int without_gil(Call&& call) {
  pybind11::gil_scoped_release nogil;
  return call();
}

}  // namespace dlock_python
