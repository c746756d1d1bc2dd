// dlock_semaphore, dlock_permit_semaphore and dlock_count_down_latch as
// Python objects. Every call that may wait releases the GIL.
#pragma once

#include <pybind11/pybind11.h>

namespace dlock_python {

void bind_native_semaphores(pybind11::module_& module);

}  // namespace dlock_python
