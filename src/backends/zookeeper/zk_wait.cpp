#include "backends/zookeeper/zk_wait.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "common/error.hpp"

namespace dlock {
namespace zk {
namespace {

// One wait's wake-up: set by the watch's signal.
struct Wakeup {
  std::mutex mutex;
  std::condition_variable woken;
  bool signalled = false;
};

}  // namespace

bool may_still_own_nodes(const ZkSession& session) {
  const SessionState state = session.state();
  return state != SessionState::expired && state != SessionState::closed &&
         state != SessionState::auth_failed && !session.may_have_expired(Clock::now());
}

bool wait_for_grant(ZkSession& session, ZkWait& wait, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  ZkCheck state = wait.begin();
  bool recheck = false;  // after a broken connection: check again before watching
  while (!state.granted) {
    try {
      if (!recheck) {
        auto wakeup = std::make_shared<Wakeup>();
        wait.watch([wakeup] {
          {
            std::lock_guard<std::mutex> lock(wakeup->mutex);
            wakeup->signalled = true;
          }
          wakeup->woken.notify_all();
        });
        std::unique_lock<std::mutex> lock(wakeup->mutex);
        if (!wakeup->woken.wait_until(lock, deadline, [&] { return wakeup->signalled; })) {
          lock.unlock();
          wait.abandon();
          return false;
        }
      }
      recheck = false;
      state = wait.attempt();
    } catch (const ConnectionError&) {
      // The C client reconnects on its own, and our nodes live as long as the
      // session: wait for the connection (the session event may lag the failed
      // request, hence the pause), then check again.
      std::this_thread::sleep_for(reconnect_pause);
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0 || !session.wait_connected(left)) {
        wait.abandon();
        throw;
      }
      recheck = true;
    }
  }
  return true;
}

}  // namespace zk
}  // namespace dlock
