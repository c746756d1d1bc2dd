#include "redis/sigpipe_guard.hpp"

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

bool sigpipe_pending() {
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  return sigismember(&pending, SIGPIPE) == 1;
}

}  // namespace

SigpipeGuard::SigpipeGuard() {
  const sigset_t set = only_sigpipe();
  was_pending_ = sigpipe_pending();
  pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
}

SigpipeGuard::~SigpipeGuard() {
  if (!was_pending_ && sigpipe_pending()) {
    const sigset_t set = only_sigpipe();
    const timespec no_wait{0, 0};
    const int saved_errno = errno;
    while (sigtimedwait(&set, nullptr, &no_wait) < 0 && errno == EINTR) {
    }
    errno = saved_errno;
  }
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

}  // namespace dlock
