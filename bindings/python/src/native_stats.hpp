// A client's counters (dlock_client_stats_get) as a dict of the C struct's
// field names.
#pragma once

#include <pybind11/pybind11.h>

namespace dlock_python {

void bind_native_stats(pybind11::module_& module);

}  // namespace dlock_python
