#include "backends/zookeeper/zk_backend.hpp"

#include <zookeeper/zookeeper.h>

#include <future>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_client_session.hpp"
#include "backends/zookeeper/zk_election_ops.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"
#include "backends/zookeeper/zk_paths.hpp"
#include "backends/zookeeper/zk_permit_leases.hpp"

namespace dlock {

ZkLockOps::SessionOf ZkBackend::session_of() const {
  // Each call finds the session of the client's core of the moment: a
  // handle's ops serve a fork()ed child on the child's own session.
  return [client = client_] { return zk_session(*client->core()); };
}

std::shared_ptr<LockOps> ZkBackend::lock(const std::string& name, LockKind kind) {
  return std::make_shared<ZkLockOps>(session_of(), name, kind);
}

std::shared_ptr<PermitLeases> ZkBackend::permit_leases(const std::string& name) {
  client_->core();  // ClosedError for a closed client
  return std::make_shared<ZkPermitLeases>(session_of(), name);
}

std::shared_ptr<ElectionOps> ZkBackend::election(const std::string& name) {
  client_->core();  // ClosedError for a closed client
  return std::make_shared<ZkElectionOps>(session_of(), name);
}

std::vector<std::string> ZkBackend::list_locks(const std::string& prefix) {
  const std::shared_ptr<zk::ZkSession> held_by = zk_session(*client_->core());
  zk::ZkSession& session = *held_by;
  const zk::ChildrenResult listed = zk::get_children(session, zk::names_root);
  if (listed.rc == ZNONODE) return {};
  if (listed.rc != ZOK) zk::raise_for(listed.rc, "getChildren", zk::names_root);
  std::vector<std::string> names;
  std::vector<std::future<zk::StatResult>> stats;
  for (const std::string& child : listed.children) {
    const std::optional<std::string> name = zk::unescape_component(child);
    if (!name || name->compare(0, prefix.size(), prefix) != 0) continue;
    names.push_back(*name);
    stats.push_back(zk::send_exists(session, std::string(zk::names_root) + "/" + child));
  }
  // A lock's path outlives its last node until the server removes the empty
  // container: only the paths with a node now are locks held or awaited.
  std::vector<std::string> held;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const zk::StatResult found = zk::await(session, stats[i], "exists", names[i]);
    if (found.rc == ZOK && found.stat.numChildren > 0) held.push_back(names[i]);
    if (found.rc != ZOK && found.rc != ZNONODE) zk::raise_for(found.rc, "exists", names[i]);
  }
  return held;
}

}  // namespace dlock
