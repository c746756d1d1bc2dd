// A counting semaphore in Redisson's RSemaphore layout: the key <name> holds
// the available permits as a string, and every change is published on
// redisson_sc:{<name>}. Permits are not owned (any caller may release), so
// nothing renews them, as in Redisson.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/cancel.hpp"
#include "core/client_core.hpp"

namespace dlock {

struct SemaphoreKeys {
  // Throws InvalidArgument for a bad name (core/key_names.hpp).
  explicit SemaphoreKeys(std::string name);

  std::string name;     // the available count
  std::string channel;  // redisson_sc:{name}
  std::string latch;    // prefix of the callers' request latches
};

class Semaphore {
 public:
  Semaphore(ClientCore& core, std::shared_ptr<const SemaphoreKeys> keys)
      : core_(core), keys_(std::move(keys)) {}

  // Takes `permits` (> 0) permits, waiting as wait_ms says (0 one attempt,
  // -1 forever). Returns false when the wait ran out. Throws
  // InterruptedError, ClosedError, ConnectionError, ProtocolError.
  bool acquire(uint64_t owner, int permits, int64_t wait_ms, Cancel* cancel);
  void release(uint64_t owner, int permits);
  // Sets the permits when the semaphore does not exist yet; false when it did.
  bool try_set_permits(int permits);
  int64_t available_permits();

 private:
  std::string latch_of(uint64_t owner) const;

  ClientCore& core_;
  std::shared_ptr<const SemaphoreKeys> keys_;
};

}  // namespace dlock
