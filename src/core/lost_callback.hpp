// A lock handle's lost-lock callback. Holds keep a reference, so a hold that
// outlives its handle's settings still finds the callback's current value;
// clearing it (when the handle is freed) waits for a call in progress.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "dlock.h"

namespace dlock {

class LostCallback {
 public:
  void set(dlock_lost_fn fn, void* ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = fn;
    ctx_ = ctx;
  }

  void call(const std::string& name, uint64_t owner, uint64_t token) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (fn_ != nullptr) fn_(name.c_str(), owner, token, ctx_);
  }

 private:
  std::mutex mutex_;
  dlock_lost_fn fn_ = nullptr;
  void* ctx_ = nullptr;
};

}  // namespace dlock
