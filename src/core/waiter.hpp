// What a waiting acquire sleeps on. Whoever has news for it (a release
// message, a subscription that became active, a cancel, a closing client)
// wakes it through here; the sleeper re-checks its own conditions. A thread
// blocked in an acquire sleeps on `wake`; an asynchronous acquire is woken
// through `on_news`, which the client's async runner sets before the waiter is
// registered anywhere.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>

namespace dlock {

struct Waiter {
  std::mutex mutex;
  std::condition_variable wake;
  bool signalled = false;  // retry now: the lock may be free
  std::function<void()> on_news;

  void signal() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      signalled = true;
    }
    wake.notify_one();
    if (on_news) on_news();
  }

  // Makes the sleeper re-check its other conditions (cancel, close).
  void poke() {
    { std::lock_guard<std::mutex> lock(mutex); }
    wake.notify_one();
    if (on_news) on_news();
  }

  // Whether a signal came since the last call; clears it.
  bool take_signal() {
    std::lock_guard<std::mutex> lock(mutex);
    const bool was = signalled;
    signalled = false;
    return was;
  }
};

}  // namespace dlock
