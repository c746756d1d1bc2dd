#include "fenced_store.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "locked_file.hpp"

namespace dlock_test {
namespace {

// The store's file, held under an exclusive flock for one operation.
class StoreFile {
 public:
  explicit StoreFile(const std::string& path) : file_(path) {}

  FencedStoreState load() const {
    char buffer[256] = {};
    const ssize_t size = pread(file_.fd(), buffer, sizeof buffer - 1, 0);
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
    if (pwrite(file_.fd(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
        ftruncate(file_.fd(), static_cast<off_t>(text.size())) != 0) {
      fail("write");
    }
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string(what) + " " + file_.path() + ": " + std::strerror(errno));
  }

  const LockedFile file_;
};

}  // namespace

FencedStore::FencedStore(std::string path) : path_(std::move(path)) {
  const StoreFile create_if_missing(path_);
}

long long FencedStore::read() const { return state().value; }

bool FencedStore::write(uint64_t token, long long value) const {
  StoreFile file(path_);
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

FencedStoreState FencedStore::state() const { return StoreFile(path_).load(); }

}  // namespace dlock_test
