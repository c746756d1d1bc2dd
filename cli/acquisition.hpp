// A blocking acquire that a signal can cut short: the acquire runs on a worker
// thread while the main thread waits for signals, and a signal triggers the
// acquire's cancel token.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "dlock.h"
#include "signal_waiter.hpp"

namespace dlock_cli {

struct Acquisition {
  int status = DLOCK_OK;  // of the acquire call
  std::string error;      // the acquiring thread's dlock_last_error()
  uint64_t token = 0;
  int signal = 0;  // the signal that interrupted the wait, if any
};

Acquisition acquire_interruptibly(dlock_lock* lock, uint64_t owner, int64_t wait_ms, SignalWaiter& signals);

// As acquire_interruptibly, for any blocking call that takes a cancel token
// and returns a dlock status (a permit's acquire).
Acquisition wait_interruptibly(const std::function<int(dlock_cancel*)>& acquire, SignalWaiter& signals);

}  // namespace dlock_cli
