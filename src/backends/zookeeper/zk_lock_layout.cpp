#include "backends/zookeeper/zk_lock_layout.hpp"

#include "backends/zookeeper/zk_paths.hpp"
#include "backends/zookeeper/zk_semaphore.hpp"

namespace dlock {
namespace {

zk::MutexKind side_of(LockKind kind) {
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

// What the client's holds tell apart on one name: the sides of the
// read-write lock (as the Redis ones), and the recipes that are not
// InterProcessMutex. nullptr: the name alone.
const char* recipe_of(LockKind kind) {
  switch (kind) {
    case LockKind::read:
      return "read";
    case LockKind::write:
      return "write";
    case LockKind::nonreentrant:
      return "semaphore-mutex";
    case LockKind::reentrant:
    case LockKind::fair:
      break;
  }
  return nullptr;
}

}  // namespace

ZkLockLayout::ZkLockLayout(const std::string& name, LockKind kind)
    : ZkLockLayout(name, zk::lock_path(name), recipe_of(kind), side_of(kind),
                   kind == LockKind::nonreentrant ? 1 : 0) {}

ZkLockLayout ZkLockLayout::semaphore(const std::string& name, int max_leases) {
  return ZkLockLayout(name, zk::lock_path(name), "semaphore", zk::MutexKind::mutex, max_leases);
}

ZkLockLayout ZkLockLayout::election(const std::string& name) {
  return ZkLockLayout(name, zk::lock_path(name, zk::elections_root), "election", zk::MutexKind::mutex, 0);
}

ZkLockLayout::ZkLockLayout(const std::string& name, std::string path, const char* recipe, zk::MutexKind side,
                           int max_leases)
    : path_(std::move(path)),
      // The name and the recipe, split by a NUL no name through the C ABI contains.
      hold_key_(recipe == nullptr ? name : name + '\0' + recipe),
      holders_path_(max_leases == 0 ? path_ : path_ + "/leases"),
      side_(side),
      max_leases_(max_leases) {}

std::vector<std::string> ZkLockLayout::holding(std::vector<std::string> children) const {
  if (max_leases_ > 0) return children;
  return zk::holders_among(std::move(children), side_);
}

bool ZkLockLayout::open_to_another(const std::vector<std::string>& children) const {
  if (max_leases_ > 0) return children.size() < static_cast<std::size_t>(max_leases_);
  return zk::grantable_now(children, side_);
}

std::unique_ptr<zk::ZkWait> ZkLockLayout::queue(zk::ZkSession& session, const std::string& node_data) const {
  if (max_leases_ > 0) return std::make_unique<zk::ZkSemaphoreLease>(session, path_, max_leases_, node_data);
  return std::make_unique<zk::ZkMutex>(session, path_, side_, node_data);
}

}  // namespace dlock
