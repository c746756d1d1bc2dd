#pragma once

#include <atomic>
#include <cstdint>

#include "dlock.h"

namespace dlock_test {

// Counts the lost-lock callbacks of one handle (they arrive on the watchdog thread).
class LostRecorder {
 public:
  // Registers this recorder as `lock`'s callback; it must outlive the registration.
  int attach(dlock_lock* lock);

  int calls() const { return calls_.load(); }
  uint64_t last_owner() const { return last_owner_.load(); }
  uint64_t last_token() const { return last_token_.load(); }
  // CLOCK_MONOTONIC of the latest call, 0 before any.
  int64_t last_call_ns() const { return last_call_ns_.load(); }

 private:
  static void on_lost(const char* name, uint64_t owner, uint64_t token, void* context);

  std::atomic<int> calls_{0};
  std::atomic<uint64_t> last_owner_{0};
  std::atomic<uint64_t> last_token_{0};
  std::atomic<int64_t> last_call_ns_{0};
};

}  // namespace dlock_test
