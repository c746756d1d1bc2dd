#include "semaphore_handles.hpp"

#include <mutex>

#include "dlock_handles.hpp"

namespace dlock_test {

SemaphoreHandle new_semaphore(dlock_client* client, const std::string& name) {
  dlock_semaphore* semaphore = nullptr;
  require_ok(dlock_semaphore_new(client, name.c_str(), &semaphore), "dlock_semaphore_new");
  return SemaphoreHandle(semaphore);
}

PermitSemaphoreHandle new_permit_semaphore(dlock_client* client, const std::string& name) {
  dlock_permit_semaphore* semaphore = nullptr;
  require_ok(dlock_permit_semaphore_new(client, name.c_str(), &semaphore), "dlock_permit_semaphore_new");
  return PermitSemaphoreHandle(semaphore);
}

LatchHandle new_latch(dlock_client* client, const std::string& name) {
  dlock_count_down_latch* latch = nullptr;
  require_ok(dlock_count_down_latch_new(client, name.c_str(), &latch), "dlock_count_down_latch_new");
  return LatchHandle(latch);
}

struct PermitLostRecorder::State {
  mutable std::mutex mutex;
  int calls = 0;
  std::string last_id;
};

PermitLostRecorder::PermitLostRecorder() : state_(std::make_shared<State>()) {}

void PermitLostRecorder::attach(dlock_permit_semaphore* semaphore) {
  require_ok(dlock_permit_semaphore_set_lost_callback(semaphore, on_lost, state_.get()),
             "dlock_permit_semaphore_set_lost_callback");
}

int PermitLostRecorder::calls() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->calls;
}

std::string PermitLostRecorder::last_id() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->last_id;
}

void PermitLostRecorder::on_lost(const char*, const char* permit_id, void* context) {
  auto* state = static_cast<State*>(context);
  std::lock_guard<std::mutex> lock(state->mutex);
  ++state->calls;
  state->last_id = permit_id;
}

}  // namespace dlock_test
