#include "cancel_check.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "dlock_handles.hpp"
#include "monotonic_clock.hpp"

namespace dlock_test {

::testing::AssertionResult cancel_ends_wait_promptly(const std::function<int(dlock_cancel*)>& wait) {
  const CancelHandle cancel = new_cancel();
  std::atomic<int> status{1000};
  std::atomic<int64_t> returned_ns{0};
  std::thread waiter([&] {
    status = wait(cancel.get());
    returned_ns = monotonic_ns();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int64_t cancelled_ns = monotonic_ns();
  require_ok(dlock_cancel_trigger(cancel.get()), "cancel");
  waiter.join();
  if (status.load() != DLOCK_E_INTERRUPTED) {
    return ::testing::AssertionFailure() << "the wait returned " << describe_status(status.load());
  }
  const int64_t after_ms = (returned_ns.load() - cancelled_ns) / 1000000;
  if (after_ms >= 50)
    return ::testing::AssertionFailure() << "the wait ended " << after_ms << " ms after the cancel";
  return ::testing::AssertionSuccess();
}

}  // namespace dlock_test
