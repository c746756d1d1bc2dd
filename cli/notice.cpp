#include "notice.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "failure.hpp"

namespace dlock_cli {

Notice::Notice() : fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (fd_ < 0) throw Failure(exit_code::internal, std::string("eventfd: ") + std::strerror(errno));
}

Notice::~Notice() { close(fd_); }

void Notice::raise() noexcept {
  const uint64_t one = 1;
  // Cannot fail short of a counter overflow, which would still leave it raised.
  (void)!write(fd_, &one, sizeof one);
}

bool Notice::take() noexcept {
  uint64_t count = 0;
  return read(fd_, &count, sizeof count) == static_cast<ssize_t>(sizeof count);
}

}  // namespace dlock_cli
