// dlock_election as a Python object: a candidate for the leadership of a
// name. Every call that may wait releases the GIL. Its lost callback and its
// observer's callback are Python callables that dlock calls on threads of its
// own (the watchdog, the observer's), taking the GIL for the call.
#pragma once

#include <pybind11/pybind11.h>

namespace dlock_python {

void bind_native_election(pybind11::module_& module);

}  // namespace dlock_python
