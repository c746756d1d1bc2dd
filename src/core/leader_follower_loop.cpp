#include "core/leader_follower_loop.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds first_backoff{50};
constexpr milliseconds max_backoff{1000};

}  // namespace

LeaderFollowerLoop::LeaderFollowerLoop(std::string name, ElectionOps::LeaderFn fn)
    : name_(std::move(name)), fn_(std::move(fn)) {}

LeaderFollowerLoop::~LeaderFollowerLoop() {
  stop();
}

void LeaderFollowerLoop::start() {
  started_in_ = static_cast<int>(getpid());
  thread_ = std::thread([this] { run(); });
}

void LeaderFollowerLoop::stop() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  woken_.notify_all();
  if (!thread_.joinable()) return;
  if (static_cast<int>(getpid()) == started_in_) {
    thread_.join();
  } else {
    thread_.detach();  // fork() copied the handle, not the thread
  }
}

void LeaderFollowerLoop::signal() {
  std::lock_guard<std::mutex> lock(mutex_);
  signalled_ = true;
  woken_.notify_all();
}

bool LeaderFollowerLoop::wait(milliseconds pause, bool& signalled) {
  std::unique_lock<std::mutex> lock(mutex_);
  woken_.wait_for(lock, pause, [this] { return signalled_ || stopping_; });
  signalled = signalled_;
  signalled_ = false;
  return !stopping_;
}

void LeaderFollowerLoop::deliver(const Leader& leader) {
  if (told_ && (leader.term < told_->term || (leader.term == told_->term && leader.value == told_->value))) {
    return;
  }
  told_ = leader;
  fn_(leader);
}

void LeaderFollowerLoop::run() {
  milliseconds pause{0};
  milliseconds backoff = first_backoff;
  bool signalled = false;
  while (wait(pause, signalled)) {
    try {
      const Read done = read(signalled);
      if (done.leader) deliver(*done.leader);
      pause = done.next;
      backoff = first_backoff;
    } catch (const ClosedError&) {
      return;  // the client was closed: nothing more will come
    } catch (const std::exception& error) {
      log::emit(DLOCK_LOG_WARN, "observing the leaders of '" + name_ + "': " + error.what() + "; retrying in " +
                                    std::to_string(backoff.count()) + " ms");
      forget();
      pause = backoff;
      backoff = std::min(backoff * 2, max_backoff);
    }
  }
}

}  // namespace dlock
