#include "backends/zookeeper/zk_leader_follower.hpp"

#include <chrono>

#include "backends/zookeeper/zk_leader.hpp"

namespace dlock {
namespace {

// How often the loop looks, without a request, whether the client's session
// is still the one its watches are on.
constexpr std::chrono::milliseconds session_check{1000};

}  // namespace

ZkLeaderFollower::ZkLeaderFollower(ZkLockOps::SessionOf session_of, ZkLockLayout layout, std::string name,
                                   ElectionOps::LeaderFn fn)
    : LeaderFollowerLoop(std::move(name), std::move(fn)),
      session_of_(std::move(session_of)),
      layout_(std::move(layout)),
      watch_id_(zk::WatchRegistry::add_repeating([this] { signal(); })) {
  start();
}

ZkLeaderFollower::~ZkLeaderFollower() {
  zk::WatchRegistry::remove(watch_id_);  // no signal runs from here on
  stop();
}

LeaderFollowerLoop::Read ZkLeaderFollower::read(bool signalled) {
  std::shared_ptr<zk::ZkSession> session = session_of_();
  if (!signalled && session == watched_) return {std::nullopt, session_check};
  watched_ = session;
  return {read_leader(*session, layout_, watch_id_), session_check};
}

}  // namespace dlock
