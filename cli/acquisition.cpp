#include "acquisition.hpp"

#include <memory>
#include <thread>

#include "lock_session.hpp"

namespace dlock_cli {

Acquisition acquire_interruptibly(dlock_lock* lock, uint64_t owner, int64_t wait_ms, SignalWaiter& signals) {
  uint64_t token = 0;
  Acquisition result = wait_interruptibly(
      [&](dlock_cancel* cancel) {
        return dlock_lock_acquire_owner(lock, owner, wait_ms, -1, cancel, &token);
      },
      signals);
  result.token = token;
  return result;
}

Acquisition wait_interruptibly(const std::function<int(dlock_cancel*)>& acquire, SignalWaiter& signals) {
  dlock_cancel* raw_cancel = nullptr;
  const int created = dlock_cancel_new(&raw_cancel);
  if (created != DLOCK_OK) fail_with_status(created, "cannot create a cancel token");
  const std::unique_ptr<dlock_cancel, void (*)(dlock_cancel*)> cancel(raw_cancel, dlock_cancel_free);

  Acquisition result;
  Notice done;
  std::thread worker([&] {
    result.status = acquire(cancel.get());
    if (result.status < 0) result.error = dlock_last_error();
    done.raise();
  });
  for (;;) {
    const Wakeup wakeup = signals.wait(done, -1);
    if (wakeup.noticed) break;
    if (wakeup.signal != 0 && wakeup.signal != SIGCHLD && result.signal == 0) {
      result.signal = wakeup.signal;
      dlock_cancel_trigger(cancel.get());
    }
  }
  worker.join();
  return result;
}

}  // namespace dlock_cli
