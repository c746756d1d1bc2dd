// What the dlock command does differently on Linux and on other POSIX systems
// (macOS), behind one interface. platform.cpp is the one file of cli/ that
// includes headers particular to a system.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <memory>

namespace dlock_cli::platform {

struct ReceivedSignal {
  int number = 0;              // 0: none
  bool from_terminal = false;  // sent by the terminal to the whole foreground group
};

// The signals dlock takes over, read in the main loop: nothing but a byte
// written to a pipe runs in a signal handler.
//   Linux: a signalfd.
//   Elsewhere: a self-pipe, written by a handler that can run only while
//   wait() lets the signals through (they stay blocked in every thread).
class SignalInbox {
 public:
  // Blocks `signals` in the calling thread (threads it starts later inherit
  // the mask). One inbox per process.
  explicit SignalInbox(const sigset_t& signals);
  ~SignalInbox();
  SignalInbox(const SignalInbox&) = delete;
  SignalInbox& operator=(const SignalInbox&) = delete;

  // Waits until a signal arrives, `other_fd` is readable, or timeout_ms
  // passes (-1: no limit). True when `other_fd` is readable.
  bool wait(int other_fd, int timeout_ms);
  // A signal received and not taken yet, or none.
  ReceivedSignal take();

 private:
  struct State;  // each system's own
  std::unique_ptr<State> state_;
};

// In a child between fork and exec (async-signal-safe calls only): ties the
// child's life to `parent`'s, so that COMMAND never outlives dlock, even one
// killed with SIGKILL. False when `parent` has ended already.
//   Linux: PR_SET_PDEATHSIG(SIGKILL).
//   Elsewhere: nothing (docs/cli.md says so); always true.
bool die_with_parent(pid_t parent);

}  // namespace dlock_cli::platform
