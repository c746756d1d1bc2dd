#include "locked_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace dlock_test {
namespace {

[[noreturn]] void fail(const char* what, const std::string& path) {
  throw std::runtime_error(std::string(what) + " " + path + ": " + std::strerror(errno));
}

}  // namespace

LockedFile::LockedFile(std::string path)
    : path_(std::move(path)), fd_(open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0) fail("open", path_);
  if (flock(fd_, LOCK_EX) != 0) {
    const int error = errno;
    close(fd_);
    errno = error;
    fail("flock", path_);
  }
}

LockedFile::~LockedFile() { close(fd_); }

}  // namespace dlock_test
