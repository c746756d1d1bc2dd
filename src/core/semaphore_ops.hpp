// What a backend gives the semaphores and the latch for one name
// (docs/design/backends.md, 1.3): their waits' wake-ups. One release (a
// latch's reaching zero) may satisfy several waiters, so every waiter hears
// every one.
#pragma once

#include <memory>

#include "core/wait_watch.hpp"
#include "core/waiter.hpp"

namespace dlock {

class SemaphoreOps {
 public:
  virtual ~SemaphoreOps() = default;
  // While the result lives, each release (or news that one may have been
  // missed) signals `waiter`.
  virtual std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) = 0;
};

}  // namespace dlock
