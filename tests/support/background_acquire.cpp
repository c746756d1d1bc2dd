#include "background_acquire.hpp"

#include "monotonic_clock.hpp"

namespace dlock_test {

std::future<AcquireOutcome> acquire_in_background(dlock_lock* lock, uint64_t owner, int64_t wait_ms,
                                                  int64_t lease_ms) {
  return std::async(std::launch::async, [=] {
    AcquireOutcome outcome;
    outcome.status = dlock_lock_acquire_owner(lock, owner, wait_ms, lease_ms, nullptr, &outcome.token);
    outcome.returned_ns = monotonic_ns();
    if (outcome.status == DLOCK_OK) outcome.release_status = dlock_lock_release_owner(lock, owner);
    return outcome;
  });
}

}  // namespace dlock_test
