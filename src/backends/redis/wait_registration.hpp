// Keeps a waiter registered with the subscriber on a channel for as long as a
// wait (core/wait_process.hpp) watches it.
#pragma once

#include <string>

#include "backends/redis/subscriber.hpp"
#include "core/waiter.hpp"

namespace dlock {

class WaitRegistration {
 public:
  // `since`: Subscriber::hearing() taken before the attempt that failed.
  WaitRegistration(Subscriber& subscriber, const std::string& channel, Waiter& waiter,
                   Subscriber::Hearing since = std::nullopt)
      : subscriber_(subscriber), channel_(channel), waiter_(waiter) {
    subscriber_.add(channel_, &waiter_, since);
  }
  ~WaitRegistration() { subscriber_.remove(channel_, &waiter_); }
  WaitRegistration(const WaitRegistration&) = delete;
  WaitRegistration& operator=(const WaitRegistration&) = delete;

 private:
  Subscriber& subscriber_;
  const std::string& channel_;
  Waiter& waiter_;
};

}  // namespace dlock
