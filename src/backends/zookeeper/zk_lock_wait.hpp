// A lock kind's wait on ZooKeeper (core/lock_ops.hpp): one ZkMutex (Curator's
// InterProcessMutex, or a side of its InterProcessReadWriteLock), its first
// try the mutex's begin() (create our node and list, one round trip), later
// tries its attempt(), its news a data watch on the node it waits for.
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
// A node deleted under a waiter (a force release) is made again.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "backends/zookeeper/zk_mutex.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

// The protected prefix of each owner's node while its wait runs, by owner
// field: how a withdrawal (a release of a grant without a locator) finds the
// node of a create whose answer was lost, as Curator's protected mode does.
// One per ZkLockOps, shared with its waits.
class ZkUnheardNodes {
 public:
  void waiting(const std::string& owner_field, const std::string& prefix);
  // The wait of `prefix` ended: granted (the hold has the node's path) or abandoned.
  void ended(const std::string& owner_field, const std::string& prefix);
  std::optional<std::string> prefix_of(const std::string& owner_field) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> prefixes_;
};

class ZkLockWait final : public LockWait {
 public:
  // `session` outlives the wait; the node's data is `owner_field`.
  ZkLockWait(zk::ZkSession& session, std::string lock_path, zk::MutexKind kind, std::string owner_field,
             std::shared_ptr<ZkUnheardNodes> unheard);
  ~ZkLockWait() override;
  ZkLockWait(const ZkLockWait&) = delete;
  ZkLockWait& operator=(const ZkLockWait&) = delete;

  // Throws ConnectionError (see above), AuthError, InvalidArgument, ProtocolError.
  Try attempt(int64_t wait_left_ms, bool woken_by_message) override;
  void watch(Waiter& waiter) override;
  void abandon() noexcept override;

 private:
  // Makes our node (again) and checks it.
  zk::ZkCheck begin();
  void end_wait() noexcept;

  zk::ZkSession& session_;
  const std::string lock_path_;
  const zk::MutexKind kind_;
  const std::string owner_field_;
  const std::shared_ptr<ZkUnheardNodes> unheard_;
  std::unique_ptr<zk::ZkMutex> mutex_;
  bool begun_ = false;       // our node exists (or existed) and was checked once
  bool riding_out_ = false;  // the last try met a broken connection: its retry_after wakes the engine
};

}  // namespace dlock
