// The command's main loop waits here: for SIGINT, SIGTERM, SIGHUP or SIGCHLD
// (from a platform::SignalInbox, so no work runs in a signal handler), for a
// Notice, or for a timeout. Construct it first in main(): it blocks those signals in
// the calling thread, so every thread started later (the library's included)
// inherits the mask and the signals reach only this loop.
#pragma once

#include <csignal>
#include <cstdint>

#include "notice.hpp"
#include "platform.hpp"

namespace dlock_cli {

struct Wakeup {
  int signal = 0;              // the signal received, 0 for none
  bool from_terminal = false;  // sent by the terminal to the whole foreground group
  bool noticed = false;        // the Notice was raised (and is lowered again)
};

class SignalWaiter {
 public:
  SignalWaiter();

  // timeout_ms -1 waits without limit; an empty Wakeup means it ran out.
  Wakeup wait(Notice& notice, int64_t timeout_ms);

  // The signals it takes over, for restoring them in a child process.
  const sigset_t& signals() const { return signals_; }

 private:
  sigset_t signals_;
  platform::SignalInbox inbox_;
};

}  // namespace dlock_cli
