// The ZooKeeper backend (core/backend.hpp): the lock kinds in Curator's
// layouts (InterProcessMutex for the lock and the fair lock, which it is
// already; InterProcessReadWriteLock's sides; InterProcessSemaphoreMutex for
// the non-reentrant lock), each behind a ZkLockOps on the client's session of
// the moment; the leased-permit semaphore's permits as InterProcessSemaphoreV2's
// leases (ZkPermitLeases); elections as LeaderSelector's (ZkElectionOps).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/zookeeper/zk_lock_ops.hpp"
#include "core/backend.hpp"
#include "core/client.hpp"

namespace dlock {

class ZkBackend final : public Backend {
 public:
  explicit ZkBackend(std::shared_ptr<Client> client) : client_(std::move(client)) {}

  const char* scheme() const override { return "zookeeper"; }
  std::shared_ptr<LockOps> lock(const std::string& name, LockKind kind) override;
  // The names under /dlock (unescaped) that start with `prefix` and have a
  // node now; a name that is a path of the caller's ("/...") is not listed.
  std::vector<std::string> list_locks(const std::string& prefix) override;
  std::shared_ptr<PermitLeases> permit_leases(const std::string& name) override;
  // Curator's LeaderSelector layout (ZkElectionOps).
  std::shared_ptr<ElectionOps> election(const std::string& name) override;

 private:
  ZkLockOps::SessionOf session_of() const;

  const std::shared_ptr<Client> client_;
};

}  // namespace dlock
