#include "backends/redis/net/sigpipe_guard.hpp"

#include <pthread.h>

#include <cerrno>
#include <ctime>

namespace dlock {
namespace {

sigset_t only_sigpipe() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  return set;
}

}  // namespace

SigpipeGuard::SigpipeGuard() {
  const sigset_t set = only_sigpipe();
  pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
  was_blocked_ = sigismember(&previous_mask_, SIGPIPE) == 1;
}

SigpipeGuard::~SigpipeGuard() {
  if (was_blocked_) return;  // nothing to restore, and a pending SIGPIPE is not ours to take
  if (write_failed_) {
    sigset_t pending;
    sigemptyset(&pending);
    if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
      const sigset_t set = only_sigpipe();
      const int saved_errno = errno;
#ifdef __APPLE__
      // No sigtimedwait there; the signal is pending, so sigwait returns at once.
      int taken;
      sigwait(&set, &taken);
#else
      const timespec no_wait{0, 0};
      while (sigtimedwait(&set, nullptr, &no_wait) < 0 && errno == EINTR) {
      }
#endif
      errno = saved_errno;
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

}  // namespace dlock
