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
#include <string>

namespace dlock {

struct Waiter {
  std::mutex mutex;
  std::condition_variable wake;
  bool signalled = false;   // retry now: the lock may be free
  bool by_release = false;  // the last signal was a release message (for the hand-off count)
  std::function<void()> on_news;
  // Woken by every message on its channel, not one waiter per message: set
  // by primitives whose one release can satisfy several waiters (semaphores,
  // a latch reaching zero). Set before the waiter is registered.
  bool every_message = false;
  // A message with this payload wakes every waiter registering it on the
  // channel, not one: the lock kind's release that may admit several waiters
  // at once (the read-write lock's "1"). Empty: none. Set before registered.
  std::string wakes_all;

  void signal(bool release_message = false) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      signalled = true;
      by_release = release_message;
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

  // Whether a signal came since the last call, and whether a release message
  // sent it; clears it.
  struct Signal {
    bool came;
    bool by_release;
  };
  Signal take_signal() {
    std::lock_guard<std::mutex> lock(mutex);
    const Signal taken{signalled, signalled && by_release};
    signalled = false;
    return taken;
  }
};

}  // namespace dlock
