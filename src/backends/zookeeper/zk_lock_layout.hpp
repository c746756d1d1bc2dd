// Which of Curator's recipes a lock kind's nodes follow at zk_paths'
// lock_path(name) (docs/design/backends.md 2.1-2.4): InterProcessMutex for
// the reentrant and the fair lock (FIFO already), a side of
// InterProcessReadWriteLock for the read-write lock's, and
// InterProcessSemaphoreMutex for the non-reentrant lock: one lease of
// InterProcessSemaphoreV2, its waiters queued on the gate <path>/locks, its
// holder's node under <path>/leases. The leased-permit semaphore's permits
// are InterProcessSemaphoreV2's leases. As in Curator, recipes of different
// layouts on one path do not exclude each other.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_mutex.hpp"
#include "backends/zookeeper/zk_session.hpp"
#include "backends/zookeeper/zk_wait.hpp"
#include "core/backend.hpp"

namespace dlock {

class ZkLockLayout {
 public:
  // Throws InvalidArgument for a name zk_paths refuses.
  ZkLockLayout(const std::string& name, LockKind kind);
  // InterProcessSemaphoreV2 with `max_leases` (>= 1) leases.
  static ZkLockLayout semaphore(const std::string& name, int max_leases);
  // An election's leadership: Curator's LeaderSelector, an InterProcessMutex
  // at the name's path (under zk_paths' elections_root unless it is a path).
  static ZkLockLayout election(const std::string& name);

  // Whether its holder is let in again: InterProcessMutex's are, a lease is not.
  bool reentrant() const { return max_leases_ == 0; }

  const std::string& path() const { return path_; }
  // What the client's holds are keyed by, with the owner: the name, with the
  // side or the recipe when that is not InterProcessMutex.
  const std::string& hold_key() const { return hold_key_; }
  // Where the holders' nodes are: a change among its children may be a release.
  const std::string& holders_path() const { return holders_path_; }
  // Of the children of holders_path(): those that hold (zk_mutex's
  // holders_among, or every lease), and whether one more could be granted
  // now (what wakes a group's member that refused).
  std::vector<std::string> holding(std::vector<std::string> children) const;
  bool open_to_another(const std::vector<std::string>& children) const;
  // One owner's wait in this layout, its nodes holding `node_data`.
  std::unique_ptr<zk::ZkWait> queue(zk::ZkSession& session, const std::string& node_data) const;

 private:
  ZkLockLayout(const std::string& name, std::string path, const char* recipe, zk::MutexKind side,
               int max_leases);

  std::string path_;
  std::string hold_key_;
  std::string holders_path_;
  zk::MutexKind side_;
  int max_leases_;  // 0: one InterProcessMutex node, else a lease of InterProcessSemaphoreV2
};

}  // namespace dlock
