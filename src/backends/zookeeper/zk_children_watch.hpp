// What a group's member that refused waits on (LockOps::watch_releases): every
// change among a lock path's children (a node deleted: a release; a node
// created: a new waiter, a cheap re-check). ZooKeeper's watches fire once, so
// this one sets itself again each time it fires, from the completion thread,
// asynchronously; while the path is missing (its container parent was
// deleted with the last node) it waits for the path to be created instead.
#pragma once

#include <string>

#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_watches.hpp"
#include "core/wait_watch.hpp"
#include "core/waiter.hpp"

namespace dlock {

class ZkChildrenWatch final : public WaitWatch {
 public:
  // Signals `waiter` on each change of `path`'s children, and once at the
  // start (the change may have come before the watch was set).
  ZkChildrenWatch(zk::ZkSession& session, std::string path, Waiter& waiter);
  ~ZkChildrenWatch() override;
  ZkChildrenWatch(const ZkChildrenWatch&) = delete;
  ZkChildrenWatch& operator=(const ZkChildrenWatch&) = delete;

 private:
  zk::ZkSession& session_;
  const std::string path_;
  zk::WatchRegistry::Id id_ = 0;
};

}  // namespace dlock
