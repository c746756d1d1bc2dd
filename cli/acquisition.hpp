// A blocking acquire that a signal can cut short: the acquire runs on a worker
// thread while the main thread waits for signals, and a signal triggers the
// acquire's cancel token.
#pragma once

#include <cstdint>
#include <string>

#include "dlock.h"
#include "signal_waiter.hpp"

namespace dlock_cli {

struct Acquisition {
  int status = DLOCK_OK;  // of dlock_lock_acquire_owner
  std::string error;      // the acquiring thread's dlock_last_error()
  uint64_t token = 0;
  int signal = 0;         // the signal that interrupted the wait, if any
};

Acquisition acquire_interruptibly(dlock_lock* lock, uint64_t owner, int64_t wait_ms,
                                  SignalWaiter& signals);

}  // namespace dlock_cli
