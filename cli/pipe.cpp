#include "pipe.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "failure.hpp"

namespace dlock_cli {
namespace {

bool set_flags(int fd, Pipe::Mode mode) {
  if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return false;
  return mode == Pipe::Mode::blocking || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0;
}

}  // namespace

// pipe and fcntl rather than pipe2, which macOS lacks; COMMAND is started by
// the thread that opens pipes, so no other fork can catch them unflagged.
Pipe::Pipe(Mode mode) {
  if (pipe(ends_) != 0) throw Failure(exit_code::internal, std::string("pipe: ") + std::strerror(errno));
  if (!set_flags(ends_[0], mode) || !set_flags(ends_[1], mode)) {
    const std::string error = std::strerror(errno);
    close(ends_[0]);
    close(ends_[1]);
    throw Failure(exit_code::internal, "fcntl: " + error);
  }
}

Pipe::~Pipe() {
  close(ends_[0]);
  close_write_end();
}

void Pipe::close_write_end() noexcept {
  if (ends_[1] >= 0) close(ends_[1]);
  ends_[1] = -1;
}

}  // namespace dlock_cli
