#include "common/wake_fd.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

#ifdef __linux__
#include <sys/eventfd.h>
#endif

namespace dlock {

#ifdef __linux__

WakeFd::WakeFd() : read_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), write_fd_(read_fd_) {
  if (read_fd_ < 0) throw std::system_error(errno, std::generic_category(), "wake-up eventfd");
}

void WakeFd::signal() {
  const std::uint64_t one = 1;
  // Fails only when the counter is about to overflow, which still wakes.
  [[maybe_unused]] ssize_t written = write(write_fd_, &one, sizeof one);
}

void WakeFd::drain() {
  std::uint64_t count;
  [[maybe_unused]] ssize_t got = read(read_fd_, &count, sizeof count);
}

WakeFd::~WakeFd() {
  close(read_fd_);
}

#else

WakeFd::WakeFd() {
  int fds[2];
  if (pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "wake-up pipe");
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  for (const int fd : fds) {
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
}

void WakeFd::signal() {
  const char byte = 1;
  // A full pipe already holds a wake-up.
  [[maybe_unused]] ssize_t written = write(write_fd_, &byte, 1);
}

void WakeFd::drain() {
  char bytes[64];
  while (read(read_fd_, bytes, sizeof bytes) > 0) {
  }
}

WakeFd::~WakeFd() {
  close(read_fd_);
  close(write_fd_);
}

#endif

}  // namespace dlock
