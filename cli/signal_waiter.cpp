#include "signal_waiter.hpp"

#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "failure.hpp"

namespace dlock_cli {

SignalWaiter::SignalWaiter() {
  sigemptyset(&signals_);
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&signals_, signal);
  if (pthread_sigmask(SIG_BLOCK, &signals_, nullptr) != 0) {
    throw Failure(exit_code::internal, "cannot block signals");
  }
  fd_ = signalfd(-1, &signals_, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd_ < 0) throw Failure(exit_code::internal, std::string("signalfd: ") + std::strerror(errno));
}

SignalWaiter::~SignalWaiter() { close(fd_); }

Wakeup SignalWaiter::wait(Notice& notice, int64_t timeout_ms) {
  pollfd fds[2] = {{fd_, POLLIN, 0}, {notice.fd(), POLLIN, 0}};
  const int ready = poll(fds, 2, timeout_ms < 0 ? -1 : static_cast<int>(timeout_ms));
  Wakeup wakeup;
  if (ready < 0 && errno != EINTR) {
    throw Failure(exit_code::internal, std::string("poll: ") + std::strerror(errno));
  }
  if (ready <= 0) return wakeup;
  if (fds[1].revents & POLLIN) wakeup.noticed = notice.take();
  signalfd_siginfo info;
  if ((fds[0].revents & POLLIN) && read(fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    wakeup.signal = static_cast<int>(info.ssi_signo);
    // The terminal driver signals the whole foreground process group with
    // SI_KERNEL: the command has received that signal too.
    wakeup.from_terminal = info.ssi_code == SI_KERNEL;
  }
  return wakeup;
}

}  // namespace dlock_cli
