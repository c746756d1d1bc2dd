#include "lost_recorder.hpp"

#include "monotonic_clock.hpp"

namespace dlock_test {

int LostRecorder::attach(dlock_lock* lock) { return dlock_lock_set_lost_callback(lock, &on_lost, this); }

void LostRecorder::on_lost(const char* /*name*/, uint64_t owner, uint64_t token, void* context) {
  auto* recorder = static_cast<LostRecorder*>(context);
  recorder->last_owner_.store(owner);
  recorder->last_token_.store(token);
  recorder->last_call_ns_.store(monotonic_ns());
  recorder->calls_.fetch_add(1);
}

}  // namespace dlock_test
