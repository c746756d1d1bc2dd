// Releasing a dropped handle can mean a round trip to Redis or waiting for
// dlock's watchdog thread; neither may happen inside garbage collection, so
// that work runs on a short-lived thread of its own.
#pragma once

#include <functional>

#include "dlock.h"

namespace dlock_python {

// Runs `work` on a short-lived thread of its own.
void run_off_thread(std::function<void()> work);
void free_lock_off_thread(dlock_lock* lock);
void close_client_off_thread(dlock_client* client);

}  // namespace dlock_python
