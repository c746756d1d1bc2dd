#pragma once

#include <string>

namespace dlock_test {

// A file opened (created if missing) and held under an exclusive flock(2)
// while this lives, so that processes the tests start take turns with it.
// Throws std::runtime_error naming the path when it cannot be opened or locked.
class LockedFile {
 public:
  explicit LockedFile(std::string path);
  ~LockedFile();  // closing drops the flock
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  const std::string path_;
  int fd_;
};

}  // namespace dlock_test
