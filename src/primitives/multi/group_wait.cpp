#include "primitives/multi/group_wait.hpp"

#include "common/error.hpp"

namespace dlock {

GroupWait::GroupWait(const std::vector<std::shared_ptr<LockMember>>& members, Cancel* cancel)
    : members_(members), cancel_(cancel) {
  if (cancel_ != nullptr) cancel_->attach(&waiter_);
}

GroupWait::~GroupWait() {
  watches_.clear();
  if (cancel_ != nullptr) cancel_->detach();
}

void GroupWait::watch(const std::vector<bool>& busy) {
  for (size_t i = 0; i < members_.size(); ++i) {
    if (!busy[i]) {
      watches_.erase(i);
    } else if (watches_.count(i) == 0) {
      watches_.emplace(i, members_[i]->watch(waiter_));
    }
  }
}

bool GroupWait::stopped() {
  if (cancel_ != nullptr && cancel_->triggered()) return true;
  for (const auto& member : members_) {
    if (member->closed()) return true;
  }
  return false;
}

bool GroupWait::sleep_until(Clock::time_point until) {
  {
    std::unique_lock<std::mutex> lock(waiter_.mutex);
    waiter_.wake.wait_until(lock, until, [&] { return waiter_.signalled || stopped(); });
  }
  return waiter_.take_signal().came;
}

void GroupWait::pause_until(Clock::time_point until) {
  std::unique_lock<std::mutex> lock(waiter_.mutex);
  waiter_.wake.wait_until(lock, until, [&] { return stopped(); });
}

void GroupWait::throw_if_stopped(const std::string& what) {
  if (cancel_ != nullptr && cancel_->triggered()) throw InterruptedError(what + ": cancelled");
  for (const auto& member : members_) {
    if (member->closed())
      throw ClosedError(what + ": the client of member '" + member->name() + "' was closed");
  }
}

}  // namespace dlock
