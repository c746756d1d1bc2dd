// dlock's log records on their way to Python's logging. The C handler runs on
// the core's threads (watchdog, subscriber) and on callers' threads, some of
// which may hold the GIL while they wait inside dlock: it must never wait for
// the GIL. It only queues the record and writes a byte to a pipe; a Python
// daemon thread (dlock/log.py) blocks reading the pipe, takes the records
// with the GIL and hands them to logging.getLogger("dlock").
#pragma once

#include <pybind11/pybind11.h>

namespace dlock_python {

void bind_native_log(pybind11::module_& module);

}  // namespace dlock_python
