// Follows an election's leaders on ZooKeeper (core/leader_follower_loop.hpp):
// each read of the leader leaves watches (zk_leader.hpp), and the loop reads
// again when one fires, so a release, a new leader's node or a proclaimed
// value wakes it, and nothing else does. The C client sets the watches again
// after a reconnection; after an expiry the client's new session has none, so
// the loop looks each second (locally) for a session other than the one its
// watches are on.
#pragma once

#include <memory>
#include <string>

#include "backends/zookeeper/zk_lock_layout.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"
#include "backends/zookeeper/zk_watches.hpp"
#include "core/leader_follower_loop.hpp"

namespace dlock {

class ZkLeaderFollower final : public LeaderFollowerLoop {
 public:
  ZkLeaderFollower(ZkLockOps::SessionOf session_of, ZkLockLayout layout, std::string name,
                   ElectionOps::LeaderFn fn);
  ~ZkLeaderFollower() override;

 private:
  Read read(bool signalled) override;
  void forget() override { watched_.reset(); }

  const ZkLockOps::SessionOf session_of_;
  const ZkLockLayout layout_;
  const zk::WatchRegistry::Id watch_id_;
  std::shared_ptr<zk::ZkSession> watched_;  // the session the watches are on
};

}  // namespace dlock
