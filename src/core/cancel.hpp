// A cancel token (dlock_cancel): triggered from any thread, it wakes the
// acquire waiting with it, which then returns DLOCK_E_INTERRUPTED.
#pragma once

#include <atomic>
#include <mutex>

#include "core/waiter.hpp"

namespace dlock {

class Cancel {
 public:
  void trigger();
  void reset() { triggered_.store(false); }
  bool triggered() const { return triggered_.load(); }

  // While attached, trigger() wakes `waiter`.
  void attach(Waiter* waiter);
  void detach();

 private:
  std::atomic<bool> triggered_{false};
  std::mutex mutex_;
  Waiter* waiter_ = nullptr;
};

}  // namespace dlock
