// A wait's watch on one Redis channel: its waiter registered with the
// client's subscriber while it lives.
#pragma once

#include <string>

#include "backends/redis/subscriber.hpp"
#include "backends/redis/wait_registration.hpp"
#include "core/wait_watch.hpp"

namespace dlock {

class ChannelWatch final : public WaitWatch {
 public:
  ChannelWatch(Subscriber& subscriber, std::string channel, Waiter& waiter)
      : channel_(std::move(channel)), registration_(subscriber, channel_, waiter) {}

 private:
  const std::string channel_;  // the registration refers to it
  WaitRegistration registration_;
};

}  // namespace dlock
