// The semaphores' and the latch's wake-ups on Redis (core/semaphore_ops.hpp):
// their one channel, every message waking every waiter.
#pragma once

#include <memory>
#include <string>

#include "backends/redis/channel_watch.hpp"
#include "backends/redis/redis_session.hpp"
#include "core/client_core.hpp"
#include "core/semaphore_ops.hpp"

namespace dlock {

class RedisSemaphoreOps final : public SemaphoreOps {
 public:
  RedisSemaphoreOps(ClientCore& core, std::string channel) : core_(core), channel_(std::move(channel)) {}

  std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) override {
    waiter.every_message = true;
    return std::make_unique<ChannelWatch>(redis_session(core_).subscriber(), channel_, waiter);
  }

 private:
  ClientCore& core_;
  const std::string channel_;
};

}  // namespace dlock
