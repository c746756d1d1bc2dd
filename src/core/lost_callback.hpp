// A hold's lost callback, as a handle set it. Holds keep a reference, so a
// hold that outlives its handle's settings still finds the callback's current
// value; clearing it (when the handle is freed) waits for a call in progress.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace dlock {

class LostCallback {
 public:
  // Told the lost hold's name, owner and token.
  using Fn = std::function<void(const std::string& name, uint64_t owner, uint64_t token)>;

  void set(Fn fn) {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = std::move(fn);
  }

  void clear() { set(nullptr); }

  void call(const std::string& name, uint64_t owner, uint64_t token) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (fn_) fn_(name, owner, token);
  }

 private:
  std::mutex mutex_;
  Fn fn_;
};

}  // namespace dlock
