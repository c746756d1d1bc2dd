// What a blocked acquire sleeps on. Whoever has news for it (a release
// message, a subscription that became active, a cancel, a closing client)
// wakes it through here; the sleeper re-checks its own conditions.
#pragma once

#include <condition_variable>
#include <mutex>

namespace dlock {

struct Waiter {
  std::mutex mutex;
  std::condition_variable wake;
  bool signalled = false;   // retry now: the lock may be free
  bool by_release = false;  // the last signal was a release message (for the hand-off count)

  void signal(bool release_message = false) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      signalled = true;
      by_release = release_message;
    }
    wake.notify_one();
  }

  // Makes the sleeper re-check its other conditions (cancel, close).
  void poke() {
    { std::lock_guard<std::mutex> lock(mutex); }
    wake.notify_one();
  }
};

}  // namespace dlock
