#include "backends/zookeeper/zk_backend.hpp"

#include "backends/zookeeper/zk_client_session.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"
#include "backends/zookeeper/zk_permit_leases.hpp"

namespace dlock {

ZkLockOps::SessionOf ZkBackend::session_of() const {
  // Each call finds the session of the client's core of the moment: a
  // handle's ops serve a fork()ed child on the child's own session.
  return [client = client_]() -> zk::ZkSession& { return zk_session(*client->core()); };
}

std::shared_ptr<LockOps> ZkBackend::lock(const std::string& name, LockKind kind) {
  return std::make_shared<ZkLockOps>(session_of(), name, kind);
}

std::shared_ptr<PermitLeases> ZkBackend::permit_leases(const std::string& name) {
  client_->core();  // ClosedError for a closed client
  return std::make_shared<ZkPermitLeases>(session_of(), name);
}

}  // namespace dlock
