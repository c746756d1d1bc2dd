#include "fenced_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace dlock_test {
namespace {

// The store's file, opened and held under an exclusive flock for one operation.
class LockedFile {
 public:
  explicit LockedFile(const std::string& path)
      : path_(path), fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) fail("open");
    if (flock(fd_, LOCK_EX) != 0) {
      close(fd_);
      fail("flock");
    }
  }
  ~LockedFile() { close(fd_); }  // closing drops the flock
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  FencedStoreState load() const {
    char buffer[256] = {};
    const ssize_t size = pread(fd_, buffer, sizeof buffer - 1, 0);
    if (size < 0) fail("read");
    FencedStoreState state;
    std::istringstream fields(std::string(buffer, static_cast<size_t>(size)));
    fields >> state.value >> state.highest_token >> state.accepted_writes >> state.stale_rejections;
    return state;
  }

  void save(const FencedStoreState& state) const {
    std::ostringstream fields;
    fields << state.value << ' ' << state.highest_token << ' ' << state.accepted_writes << ' '
           << state.stale_rejections << '\n';
    const std::string text = fields.str();
    if (pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
        ftruncate(fd_, static_cast<off_t>(text.size())) != 0) {
      fail("write");
    }
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string(what) + " " + path_ + ": " + std::strerror(errno));
  }

  std::string path_;
  int fd_;
};

}  // namespace

FencedStore::FencedStore(std::string path) : path_(std::move(path)) {
  const LockedFile create_if_missing(path_);
}

long long FencedStore::read() const { return state().value; }

bool FencedStore::write(uint64_t token, long long value) const {
  LockedFile file(path_);
  FencedStoreState state = file.load();
  if (token < state.highest_token) {
    ++state.stale_rejections;
    file.save(state);
    return false;
  }
  state.highest_token = token;
  state.value = value;
  ++state.accepted_writes;
  file.save(state);
  return true;
}

FencedStoreState FencedStore::state() const { return LockedFile(path_).load(); }

}  // namespace dlock_test
