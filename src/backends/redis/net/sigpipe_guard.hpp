// Keeps a write to a socket the server closed from killing the process with
// SIGPIPE: hiredis writes with write(2), and a library must not change the
// process's signal dispositions. As libcurl does, SIGPIPE is blocked in the
// calling thread while it writes, and one the write raised is consumed before
// it is unblocked. Two system calls per write; the pending check runs only
// after a failed write.
#pragma once

#include <signal.h>

namespace dlock {

class SigpipeGuard {
 public:
  SigpipeGuard();
  ~SigpipeGuard();
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

  // The write failed: it may have raised SIGPIPE.
  void write_failed() { write_failed_ = true; }

 private:
  sigset_t previous_mask_;
  bool was_blocked_ = false;  // the thread blocks SIGPIPE itself: what is pending is its own
  bool write_failed_ = false;
};

}  // namespace dlock
