#include "backends/zookeeper/zk_lock_layout.hpp"

#include "backends/zookeeper/zk_paths.hpp"
#include "backends/zookeeper/zk_semaphore.hpp"

namespace dlock {
namespace {

zk::MutexKind mutex_kind(LockKind kind) {
  switch (kind) {
    case LockKind::read:
      return zk::MutexKind::read;
    case LockKind::write:
      return zk::MutexKind::write;
    case LockKind::reentrant:
    case LockKind::fair:
    case LockKind::nonreentrant:
      break;
  }
  return zk::MutexKind::mutex;
}

// As the Redis read-write lock's sides: the name and the side (or the
// recipe), split by a NUL no name through the C ABI contains.
std::string hold_key_of(const std::string& name, LockKind kind) {
  if (kind == LockKind::read) return name + '\0' + "read";
  if (kind == LockKind::write) return name + '\0' + "write";
  if (kind == LockKind::nonreentrant) return name + '\0' + "semaphore-mutex";
  return name;
}

}  // namespace

ZkLockLayout::ZkLockLayout(const std::string& name, LockKind kind)
    : kind_(kind),
      path_(zk::lock_path(name)),
      hold_key_(hold_key_of(name, kind)),
      holders_path_(kind == LockKind::nonreentrant ? path_ + "/leases" : path_) {}

std::unique_ptr<zk::ZkWait> ZkLockLayout::queue(zk::ZkSession& session, const std::string& node_data) const {
  if (kind_ == LockKind::nonreentrant) {
    // InterProcessSemaphoreMutex is InterProcessSemaphoreV2 with one lease.
    return std::make_unique<zk::ZkSemaphoreLease>(session, path_, 1, node_data);
  }
  return std::make_unique<zk::ZkMutex>(session, path_, mutex_kind(kind_), node_data);
}

}  // namespace dlock
