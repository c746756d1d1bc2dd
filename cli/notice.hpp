// A flag one thread raises and the main loop waits for (a non-blocking pipe):
// safe to raise from any thread, the library's watchdog thread included.
#pragma once

#include "pipe.hpp"

namespace dlock_cli {

class Notice {
 public:
  Notice() : pipe_(Pipe::Mode::nonblocking) {}

  void raise() noexcept;
  int fd() const { return pipe_.read_end(); }
  // True, and lowered again, when it had been raised.
  bool take() noexcept;

 private:
  Pipe pipe_;
};

}  // namespace dlock_cli
