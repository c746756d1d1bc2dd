// Keeps a write to a socket the server closed from killing the process with
// SIGPIPE: hiredis writes with write(2), and a library must not change the
// process's signal dispositions. As libcurl does, SIGPIPE is blocked in the
// calling thread for the duration, and one it raised is consumed before it is
// unblocked (one that was already pending is left alone).
#pragma once

#include <signal.h>

namespace dlock {

class SigpipeGuard {
 public:
  SigpipeGuard();
  ~SigpipeGuard();
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

 private:
  sigset_t previous_mask_;
  bool was_pending_ = false;
};

}  // namespace dlock
