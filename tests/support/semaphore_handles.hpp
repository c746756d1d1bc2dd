#pragma once

#include <memory>
#include <string>

#include "dlock.h"

namespace dlock_test {

struct SemaphoreFreer {
  void operator()(dlock_semaphore* semaphore) const { dlock_semaphore_free(semaphore); }
};
struct PermitSemaphoreFreer {
  void operator()(dlock_permit_semaphore* semaphore) const { dlock_permit_semaphore_free(semaphore); }
};
struct LatchFreer {
  void operator()(dlock_count_down_latch* latch) const { dlock_count_down_latch_free(latch); }
};

using SemaphoreHandle = std::unique_ptr<dlock_semaphore, SemaphoreFreer>;
using PermitSemaphoreHandle = std::unique_ptr<dlock_permit_semaphore, PermitSemaphoreFreer>;
using LatchHandle = std::unique_ptr<dlock_count_down_latch, LatchFreer>;

// These throw std::runtime_error (status and dlock_last_error()) on failure.
SemaphoreHandle new_semaphore(dlock_client* client, const std::string& name);
PermitSemaphoreHandle new_permit_semaphore(dlock_client* client, const std::string& name);
LatchHandle new_latch(dlock_client* client, const std::string& name);

// Counts one handle's lost-permit callbacks (they arrive on the watchdog thread).
class PermitLostRecorder {
 public:
  PermitLostRecorder();
  // Registers this recorder as `semaphore`'s callback; it must outlive the registration.
  void attach(dlock_permit_semaphore* semaphore);
  int calls() const;
  std::string last_id() const;

 private:
  static void on_lost(const char* name, const char* permit_id, void* context);

  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace dlock_test
