#include "backends/zookeeper/zk_backend.hpp"

#include "backends/zookeeper/zk_client_session.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"

namespace dlock {

std::shared_ptr<LockOps> ZkBackend::lock(const std::string& name, LockKind kind) {
  // Each call finds the session of the client's core of the moment: a
  // handle's ops serve a fork()ed child on the child's own session.
  return std::make_shared<ZkLockOps>(
      [client = client_]() -> zk::ZkSession& { return zk_session(*client->core()); }, name, kind);
}

}  // namespace dlock
