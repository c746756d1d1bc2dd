// Follows an election's leaders on ZooKeeper (core/election_ops.hpp's
// LeaderFollower) on a thread of its own: it reads the leader leaving watches
// (zk_leader.hpp), and reads again when one fires, so a release, a new
// leader's node or a proclaimed value wakes it, and nothing else does. The
// C client sets the watches again after a reconnection; after an expiry the
// client's new session has none, so the thread looks each second (locally)
// for a session other than the one its watches are on.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "backends/zookeeper/zk_lock_layout.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"
#include "backends/zookeeper/zk_watches.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class ZkLeaderFollower final : public LeaderFollower {
 public:
  ZkLeaderFollower(ZkLockOps::SessionOf session_of, ZkLockLayout layout, std::string name,
                   ElectionOps::LeaderFn fn);
  ~ZkLeaderFollower() override;
  ZkLeaderFollower(const ZkLeaderFollower&) = delete;
  ZkLeaderFollower& operator=(const ZkLeaderFollower&) = delete;

 private:
  void run();
  // Waits until a watch fires, the session may have changed, or `pause`
  // passes (after an error); false once stopping. `signalled` tells which.
  bool wait(std::chrono::milliseconds pause, bool& signalled);
  // Calls back unless it is the leader told last (same term and value) or an
  // older term.
  void deliver(const Leader& leader);

  const ZkLockOps::SessionOf session_of_;
  const ZkLockLayout layout_;
  const std::string name_;
  const ElectionOps::LeaderFn fn_;
  std::mutex mutex_;
  std::condition_variable woken_;
  bool signalled_ = true;  // the first read is due
  bool stopping_ = false;
  std::optional<Leader> told_;
  const zk::WatchRegistry::Id watch_id_;
  const int started_in_;  // the pid that started the thread: a forked child has none to join
  std::thread thread_;
};

}  // namespace dlock
