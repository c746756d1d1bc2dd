#include "core/cancel.hpp"

namespace dlock {

void Cancel::trigger() {
  std::lock_guard<std::mutex> lock(mutex_);
  triggered_.store(true);
  if (waiter_ != nullptr) {
    waiter_->poke();
  }
}

void Cancel::attach(Waiter* waiter) {
  std::lock_guard<std::mutex> lock(mutex_);
  waiter_ = waiter;
}

void Cancel::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  waiter_ = nullptr;
}

}  // namespace dlock
