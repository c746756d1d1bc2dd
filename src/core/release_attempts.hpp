// The side of a wait (core/wait_process.hpp) that the semaphores and the
// latch share: their waiters hear every release of the name (the backend's
// SemaphoreOps), since one release (or the latch's "zero") can satisfy several.
#pragma once

#include <memory>

#include "core/client_core.hpp"
#include "core/semaphore_ops.hpp"
#include "core/wait_process.hpp"

namespace dlock {

class ReleaseAttempts : public WaitAttempts {
 public:
  ReleaseAttempts(ClientCore& core, std::unique_ptr<SemaphoreOps> ops) : core_(core), ops_(std::move(ops)) {}

  void watch(Waiter& waiter) override {
    if (!watch_) watch_ = ops_->watch_releases(waiter);
  }
  void stop(bool /*granted*/) noexcept override { watch_.reset(); }
  bool closed() override { return core_.closed(); }
  void throw_if_closed() override { core_.throw_if_closed(); }

 private:
  ClientCore& core_;
  const std::unique_ptr<SemaphoreOps> ops_;
  std::unique_ptr<WaitWatch> watch_;
};

}  // namespace dlock
