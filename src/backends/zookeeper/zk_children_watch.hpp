// What a group's member that refused waits on (LockOps::watch_releases): the
// children of the path its holders' nodes are under, listed on each change.
// The waiter is signalled when a listing shows the lock open to it (for a
// mutex no node at all; for a read side no write node; for leases fewer than
// their number), not on every change: a refused try makes and deletes a node of its
// own, and the tries of the waiters each change woke would wake the others
// again, each try's node refusing the rest (a storm of tries at the speed of a
// round trip, in which none may be granted). ZooKeeper's watches fire once, so
// the child watch is set again each time it fires, from the completion thread,
// asynchronously; while the path is missing (its container parent was deleted
// with the last node) it waits for the path to be created instead. A listing
// the session can no longer send (it expired) signals too: the waiter's next
// try finds the client's new session.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_watches.hpp"
#include "core/wait_watch.hpp"
#include "core/waiter.hpp"

namespace dlock {

class ZkChildrenWatch final : public WaitWatch {
 public:
  // Whether children like these let one more holder in.
  using Open = std::function<bool(const std::vector<std::string>& children)>;

  // Signals `waiter` whenever a listing of `path`'s children is `open` (or
  // fails), the first listing included: the holder may have gone before the
  // watch was set.
  ZkChildrenWatch(std::shared_ptr<zk::ZkSession> session, std::string path, Open open, Waiter& waiter);
  ~ZkChildrenWatch() override;
  ZkChildrenWatch(const ZkChildrenWatch&) = delete;
  ZkChildrenWatch& operator=(const ZkChildrenWatch&) = delete;

  // What the listings' answers share with this watch (zk_children_watch.cpp).
  struct Listing;

 private:
  const std::shared_ptr<zk::ZkSession> session_;  // kept open while watched
  const std::string path_;
  std::shared_ptr<Listing> listing_;
  zk::WatchRegistry::Id id_ = 0;
};

}  // namespace dlock
