#include "watched_holder.hpp"

#include <chrono>
#include <thread>

#include "monotonic_clock.hpp"
#include "status_assertions.hpp"

namespace dlock_test {

::testing::AssertionResult hold_past_first_renewal(dlock_lock* lock, const LostRecorder& lost,
                                                   int64_t watchdog_ms, Section& holder) {
  holder = Section{};
  holder.owner = "holder";
  const ::testing::AssertionResult acquired =
      status_is(dlock_lock_acquire(lock, 0, -1, &holder.token), DLOCK_OK);
  if (!acquired) return acquired;
  holder.start_ns = monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(watchdog_ms / 2));
  if (lost.calls() != 0) return ::testing::AssertionFailure() << "lost before the first renewal";
  return ::testing::AssertionSuccess();
}

}  // namespace dlock_test
