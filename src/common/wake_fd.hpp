// A descriptor a thread polls to be woken by another: the one place that knows
// the platform's wake-up primitive (an eventfd on Linux, a pipe elsewhere).
// signal() may be called from any thread and any number of times before the
// poller wakes; drain() clears every wake-up so far.
#pragma once

namespace dlock {

class WakeFd {
 public:
  WakeFd();  // throws std::system_error when no descriptor can be had
  ~WakeFd();
  WakeFd(const WakeFd&) = delete;
  WakeFd& operator=(const WakeFd&) = delete;

  int fd() const { return read_fd_; }  // poll it for POLLIN
  void signal();
  void drain();

 private:
  int read_fd_ = -1;
  int write_fd_ = -1;  // the same descriptor as read_fd_ for an eventfd
};

}  // namespace dlock
