#include "backends/zookeeper/zk_leader_follower.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "backends/zookeeper/zk_leader.hpp"
#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

using std::chrono::milliseconds;

// How often the thread looks, without a request, whether the client's
// session is still the one its watches are on.
constexpr milliseconds session_check{1000};
constexpr milliseconds first_backoff{50};
constexpr milliseconds max_backoff{1000};

}  // namespace

ZkLeaderFollower::ZkLeaderFollower(ZkLockOps::SessionOf session_of, ZkLockLayout layout, std::string name,
                                   ElectionOps::LeaderFn fn)
    : session_of_(std::move(session_of)),
      layout_(std::move(layout)),
      name_(std::move(name)),
      fn_(std::move(fn)),
      watch_id_(zk::WatchRegistry::add_repeating([this] {
        std::lock_guard<std::mutex> lock(mutex_);
        signalled_ = true;
        woken_.notify_all();
      })),
      started_in_(static_cast<int>(getpid())),
      thread_([this] { run(); }) {}

ZkLeaderFollower::~ZkLeaderFollower() {
  zk::WatchRegistry::remove(watch_id_);  // no signal runs from here on
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  woken_.notify_all();
  if (static_cast<int>(getpid()) == started_in_) {
    thread_.join();
  } else {
    thread_.detach();  // fork() copied the handle, not the thread
  }
}

bool ZkLeaderFollower::wait(milliseconds pause, bool& signalled) {
  std::unique_lock<std::mutex> lock(mutex_);
  woken_.wait_for(lock, pause, [this] { return signalled_ || stopping_; });
  signalled = signalled_;
  signalled_ = false;
  return !stopping_;
}

void ZkLeaderFollower::deliver(const Leader& leader) {
  if (told_ && (leader.term < told_->term || (leader.term == told_->term && leader.value == told_->value))) {
    return;
  }
  told_ = leader;
  fn_(leader);
}

void ZkLeaderFollower::run() {
  std::shared_ptr<zk::ZkSession> watched;  // the session the watches are on
  milliseconds pause = session_check;
  milliseconds backoff = first_backoff;
  bool signalled = false;
  while (wait(pause, signalled)) {
    try {
      std::shared_ptr<zk::ZkSession> session = session_of_();
      if (!signalled && session == watched) continue;
      watched = session;
      const std::optional<Leader> leader = read_leader(*session, layout_, watch_id_);
      if (leader) deliver(*leader);
      pause = session_check;
      backoff = first_backoff;
    } catch (const ClosedError&) {
      return;  // the client was closed: nothing more will come
    } catch (const std::exception& error) {
      log::emit(DLOCK_LOG_WARN, "observing the leaders of '" + name_ + "': " + error.what() + "; retrying in " +
                                    std::to_string(backoff.count()) + " ms");
      watched.reset();  // read again after the pause
      pause = backoff;
      backoff = std::min(backoff * 2, max_backoff);
    }
  }
}

}  // namespace dlock
