// A counting semaphore in Redisson's RSemaphore layout: the key <name> holds
// the available permits as a string, and every change is published on
// redisson_sc:{<name>}. Permits are not owned (any caller may release), so
// nothing renews them, as in Redisson.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "core/cancel.hpp"
#include "core/client_core.hpp"
#include "core/wait_process.hpp"

namespace dlock {

struct SemaphoreKeys {
  // Throws InvalidArgument for a bad name (core/key_names.hpp).
  explicit SemaphoreKeys(std::string name);

  std::string name;     // the available count
  std::string channel;  // redisson_sc:{name}
  std::string latch;    // prefix of the callers' request records
};

// What a handle keeps: its keys, and the permits taken through it and not
// yet returned (a release of those into a vanished semaphore is a loss).
struct SemaphoreState {
  // Throws InvalidArgument for a bad name (core/key_names.hpp).
  explicit SemaphoreState(std::string name) : keys(std::move(name)) {}

  const SemaphoreKeys keys;
  std::atomic<int64_t> taken{0};
};

class Semaphore {
 public:
  Semaphore(ClientCore& core, std::shared_ptr<SemaphoreState> state)
      : core_(core), state_(std::move(state)), keys_(&state_->keys) {}

  // Takes `permits` (> 0) permits, waiting as wait_ms says (0 one attempt,
  // -1 forever). Returns false when the wait ran out. Throws
  // InterruptedError, ClosedError, ConnectionError, ProtocolError. After a
  // ConnectionError the acquire is withdrawn (core/pending_requests.hpp).
  bool acquire(uint64_t owner, int permits, int64_t wait_ms, Cancel* cancel) {
    return acquire_wait(owner, permits, wait_ms, cancel)->run();
  }
  // The same acquire as a wait for a driver to run (core/wait_process.hpp):
  // the async runner's, for dlock_semaphore_acquire_async.
  std::shared_ptr<WaitProcess> acquire_wait(uint64_t owner, int permits, int64_t wait_ms, Cancel* cancel);
  // Returns `permits`. Throws LostError, touching nothing, when they were
  // taken through this handle and the semaphore's key has vanished since (a
  // restart without persistence): try_set_permits can then set it again.
  // After a ConnectionError the release is finished in the background; the
  // owner's next identical release is its retry and adds nothing more.
  void release(uint64_t owner, int permits);
  // Sets the permits when the semaphore does not exist yet (never set, or
  // vanished); false when it did.
  bool try_set_permits(int permits);
  int64_t available_permits();

 private:
  friend class SemaphoreAcquire;
  // The caller's request record (src/backends/redis/lua/requests.lua), which also names its
  // pending request (core/pending_requests.hpp).
  std::string record_of(uint64_t owner) const;
  // An acquire that failed ambiguously is withdrawn: its permits given back if it ran.
  void withdraw_later(const std::string& record, const std::string& count, const std::string& request,
                      const std::string& what);
  // Throws LostError when release.lua answered 2.
  static void throw_if_lost(int64_t released, const std::string& what);
  // Whether this handle took `permits` it has not returned; takes them off.
  bool give_back_taken(int permits);

  ClientCore& core_;
  std::shared_ptr<SemaphoreState> state_;
  const SemaphoreKeys* keys_;
};

}  // namespace dlock
