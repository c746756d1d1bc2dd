// One owner's acquire of Curator's InterProcessMutex, or of a side of its
// InterProcessReadWriteLock (which Curator builds as two such mutexes on one
// path), node for node as Curator lays it out (docs/design/backends.md 2.1-2.3):
// <path>/_c_<uuid>-<marker><seq10>, EPHEMERAL_SEQUENTIAL, under CONTAINER
// parents, the marker "lock-", "__READ__" or "__WRIT__"; children sorted by
// their sequence (sort_key). The mutex and the write side are granted when our
// node is first and otherwise watch their predecessor only; the read side is
// granted when no write node is ahead of ours and otherwise watches the first
// one. The fencing token is our node's czxid. Re-entry is the caller's (the
// core's Holds), not this class's.
// Its wait is driven as every recipe's is (zk_wait.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_wait.hpp"
#include "backends/zookeeper/zk_watches.hpp"

namespace dlock {
namespace zk {

enum class MutexKind { mutex, read, write };

class ZkMutex : public ZkWait {
 public:
  using Check = ZkCheck;

  // `lock_path` as zk_paths' lock_path() made it; `node_data` is what the
  // node holds (Curator's readers ignore it).
  ZkMutex(ZkSession& session, std::string lock_path, MutexKind kind = MutexKind::mutex,
          std::string node_data = {});
  ~ZkMutex() override;  // abandon() unless granted: a granted node is the caller's to release()
  ZkMutex(const ZkMutex&) = delete;
  ZkMutex& operator=(const ZkMutex&) = delete;

  // Creates our node (the parents first when missing) and, pipelined behind
  // the create on the session, lists the children: one round trip when the
  // parent exists. A lost connection during the create is settled as
  // Curator's protected mode does: the parent is listed and our node found by
  // its UUID prefix. Throws ConnectionError, AuthError, InvalidArgument.
  Check begin() override;
  // Lists the children again. Throws LostError when our node is gone.
  Check attempt() override;
  // Arms a data watch on our predecessor; `signal` runs once on the completion
  // thread (it must only signal) when the predecessor changes or goes, or at
  // once (on this thread) when it is gone already. Then call attempt().
  void watch(std::function<void()> signal) override;
  // Gives up without a grant: deletes our node and drops the watch, without
  // waiting for either. Idempotent; a granted node is not touched.
  void abandon() noexcept override;
  // Deletes our (granted) node; throws LostError when it was gone already.
  void release();

  // wait_for_grant() on this mutex.
  bool acquire(std::chrono::milliseconds wait);

  const std::string& node_path() const override { return node_path_; }
  std::vector<QueuedNode> queued_nodes() const override { return {{lock_path_, node_prefix_}}; }
  std::uint64_t token() const { return token_; }
  // The node we wait for (empty when granted or before begin()).
  const std::string& predecessor() const { return predecessor_; }
  // Our node's prefix: "_c_<uuid>-lock-" (or the side's marker).
  const std::string& node_prefix() const { return node_prefix_; }

 private:
  Check check(const std::vector<std::string>& children);
  void drop_watch() noexcept;

  ZkSession& session_;
  std::string lock_path_;
  MutexKind kind_;
  std::string node_data_;
  std::string node_prefix_;
  std::string node_path_;
  std::string node_name_;
  std::uint64_t token_ = 0;
  std::string predecessor_;
  WatchRegistry::Id watch_id_ = 0;
  std::string watched_path_;
  bool granted_ = false;
};

// Curator's sort key for a child of a `kind` lock path: the text after the last
// "lock-" (StandardLockInternalsDriver.fixForSorting), or for the read-write
// lock's sides after the last "__READ__", then "__WRIT__"
// (InterProcessReadWriteLock's SortingLockInternalsDriver); the whole name
// without a marker.
std::string sort_key(const std::string& child, MutexKind kind = MutexKind::mutex);

// Whether a node of `kind` made now under a lock path with these children
// would be granted at once: for the mutex and the write side, when there are
// none; for the read side, when none of them is a write node.
bool grantable_now(const std::vector<std::string>& children, MutexKind kind);

// The children of a lock path that hold it, in Curator's order: the first
// node of a mutex; on a read-write lock's path the first node if it is a
// write node, else the read nodes before the first write node.
std::vector<std::string> holders_among(std::vector<std::string> children, MutexKind kind);

}  // namespace zk
}  // namespace dlock
