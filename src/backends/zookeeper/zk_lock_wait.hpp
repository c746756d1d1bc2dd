// A lock kind's wait on ZooKeeper (core/lock_ops.hpp): one recipe's wait in
// the kind's layout (zk_lock_layout.hpp: a ZkMutex for Curator's
// InterProcessMutex or a side of its InterProcessReadWriteLock, a
// ZkSemaphoreLease for its InterProcessSemaphoreMutex), its first try the
// recipe's begin() (create our node and list, one round trip), later tries
// its attempt(), its news the recipe's watch.
//
// A broken connection is not a failure while the session may still own our
// node (zk_wait's may_still_own_nodes: the C client reconnects by itself and
// the node lives as long as the session): a try that meets one is answered
// "refused, look again after reconnect_pause" (Try::retry_after), and a watch
// that cannot be set signals at once, so the engine's deadline, cancel and
// close still rule the wait and no thread blocks longer than one request.
// Once the session may have expired (no answer for its timeout, or the server
// said so) the try throws ConnectionError, and the engine withdraws the wait.
// So does a first try whose create went unanswered and could not be found
// again by its protected prefix: the withdrawal finds it (ZkUnheardNodes).
// A node deleted under a waiter (a force release) is made again, and so is a
// node whose session the server expired (its nodes went with it): the wait
// queues again, at the back, on the client's new session (as Curator's
// InterProcessMutex does), its deadline unchanged.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_lock_layout.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

// The protected nodes of each owner's wait while it runs, by owner field: how
// a withdrawal (a release of a grant without a locator) finds the node of a
// create whose answer was lost, as Curator's protected mode does. One per
// ZkLockOps, shared with its waits.
class ZkUnheardNodes {
 public:
  void waiting(const std::string& owner_field, const std::vector<zk::QueuedNode>& nodes);
  // The wait of `nodes` ended: granted (the hold has the node's path) or abandoned.
  void ended(const std::string& owner_field, const std::vector<zk::QueuedNode>& nodes);
  std::optional<std::vector<zk::QueuedNode>> nodes_of(const std::string& owner_field) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<zk::QueuedNode>> nodes_;
};

class ZkLockWait final : public LockWait {
 public:
  // Queues `owner_field`'s wait on `session`'s session of the moment, its
  // nodes holding `node_data`.
  ZkLockWait(std::function<std::shared_ptr<zk::ZkSession>()> session, const ZkLockLayout& layout,
             std::string owner_field, std::string node_data, std::shared_ptr<ZkUnheardNodes> unheard);
  ~ZkLockWait() override;
  ZkLockWait(const ZkLockWait&) = delete;
  ZkLockWait& operator=(const ZkLockWait&) = delete;

  // Throws ConnectionError (see above), AuthError, InvalidArgument, ProtocolError.
  Try attempt(int64_t wait_left_ms, bool woken_by_message) override;
  void watch(Waiter& waiter) override;
  void abandon() noexcept override;

 private:
  // Makes our node (again), on the session of the moment, and checks it.
  zk::ZkCheck begin();
  // begin() or the recipe's attempt(); a ConnectionError is attempt()'s to judge.
  Try try_once();
  void end_wait() noexcept;
  // Whether the server expired the session our node was made on.
  bool queued_on_expired_session() const;

  const std::function<std::shared_ptr<zk::ZkSession>()> session_of_;
  std::shared_ptr<zk::ZkSession> session_;  // the one our node is on
  const ZkLockLayout layout_;
  const std::string owner_field_;
  const std::string node_data_;
  const std::shared_ptr<ZkUnheardNodes> unheard_;
  std::unique_ptr<zk::ZkWait> recipe_;
  bool begun_ = false;       // our node exists (or existed) and was checked once
  bool riding_out_ = false;  // the last try met a broken connection: its retry_after wakes the engine
};

}  // namespace dlock
