// The side of a wait (core/wait_process.hpp) that the semaphores and the
// latch share: their waiters watch one channel and every message wakes them
// all, since one release (or the latch's "zero") can satisfy several.
#pragma once

#include <optional>
#include <string>

#include "core/client_core.hpp"
#include "core/wait_process.hpp"
#include "core/wait_registration.hpp"

namespace dlock {

class ChannelAttempts : public WaitAttempts {
 public:
  ChannelAttempts(ClientCore& core, std::string channel) : core_(core), channel_(std::move(channel)) {}

  void watch(Waiter& waiter) override {
    if (registration_) return;
    waiter.every_message = true;
    registration_.emplace(core_.subscriber(), channel_, waiter);
  }
  void stop(bool /*granted*/) noexcept override { registration_.reset(); }
  bool closed() override { return core_.closed(); }
  void throw_if_closed() override { core_.throw_if_closed(); }

 private:
  ClientCore& core_;
  const std::string channel_;  // the registration refers to it
  std::optional<WaitRegistration> registration_;
};

}  // namespace dlock
