// Where Python code runs when dlock calls back: on one of dlock's own threads
// (the watchdog's lost-lock reports, the async thread's completions), which
// are not Python threads, or in the release that found a loss.
#pragma once

namespace dlock_python {

// Marks this thread as inside a dlock callback for its lifetime. There dlock
// must not be asked to wait for the calling thread: closing a client joins
// the watchdog and async threads, freeing a handle waits for its lost-lock
// callback to return.
class InDlockCallback {
 public:
  InDlockCallback();
  ~InDlockCallback();
  InDlockCallback(const InDlockCallback&) = delete;
  InDlockCallback& operator=(const InDlockCallback&) = delete;

  static bool on_this_thread();
};

// False once the interpreter is finalizing: a thread that takes the GIL then
// is ended on the spot, and dlock's threads must not be, so late callbacks
// are dropped.
bool interpreter_running();

}  // namespace dlock_python
