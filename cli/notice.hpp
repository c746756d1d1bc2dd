// A flag one thread raises and the main loop waits for (an eventfd): safe to
// raise from any thread, including the library's watchdog thread.
#pragma once

namespace dlock_cli {

class Notice {
 public:
  Notice();
  ~Notice();
  Notice(const Notice&) = delete;
  Notice& operator=(const Notice&) = delete;

  void raise() noexcept;
  int fd() const { return fd_; }
  // True, and lowered again, when it had been raised.
  bool take() noexcept;

 private:
  int fd_;
};

}  // namespace dlock_cli
