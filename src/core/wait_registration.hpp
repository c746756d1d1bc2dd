// Keeps a waiter registered with the subscriber on a channel, and with the
// cancel token, for as long as a blocking call waits.
#pragma once

#include <string>

#include "core/cancel.hpp"
#include "core/subscriber.hpp"
#include "core/waiter.hpp"

namespace dlock {

class WaitRegistration {
 public:
  WaitRegistration(Subscriber& subscriber, const std::string& channel, Waiter& waiter, Cancel* cancel)
      : subscriber_(subscriber), channel_(channel), waiter_(waiter), cancel_(cancel) {
    subscriber_.add(channel_, &waiter_);
    if (cancel_ != nullptr) cancel_->attach(&waiter_);
  }
  ~WaitRegistration() {
    if (cancel_ != nullptr) cancel_->detach();
    subscriber_.remove(channel_, &waiter_);
  }
  WaitRegistration(const WaitRegistration&) = delete;
  WaitRegistration& operator=(const WaitRegistration&) = delete;

 private:
  Subscriber& subscriber_;
  const std::string& channel_;
  Waiter& waiter_;
  Cancel* cancel_;
};

}  // namespace dlock
