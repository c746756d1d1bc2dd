// The leased-permit semaphore on ZooKeeper (core/permit_semaphore_ops.hpp):
// Curator's InterProcessSemaphoreV2 at zk_paths' lock_path(name), a permit
// one of its leases (<path>/leases/_c_<uuid>-lease-<sequence>). Its max
// leases are the count at <path>/permits, stored as Curator's SharedCount
// stores one (a 4-byte big-endian int, so Curator can read it through
// InterProcessSemaphoreV2(client, path, new SharedCount(client, path +
// "/permits", n))), set by try_set_permits only while unset, as Redisson's
// trySetPermits. Each permit is a hold of the client under an owner id of its
// own (PermitId's), taken and kept through the lock's flow (ReentrantLock over
// a ZkLockOps): the session keeps it (lease_ms -1 only), the watchdog's
// keeper checks its node, a loss is told. The permit id is
// PermitId::text(owner, the lease's czxid): only the client that took a
// permit can release it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "backends/zookeeper/zk_lock_ops.hpp"
#include "core/permit_semaphore_ops.hpp"

namespace dlock {

class ZkPermitSemaphoreOps final : public PermitSemaphoreOps {
 public:
  // Throws InvalidArgument for a name zk_paths refuses.
  ZkPermitSemaphoreOps(ZkLockOps::SessionOf session, std::string name);

  // Throws InvalidArgument while the permits are unset (or 0), or for a
  // fixed lease.
  Wait acquire_wait(ClientCore& core, const PermitRequest& request) override;
  // Throws NotOwnerError for an id that is no permit of this client's.
  void release(ClientCore& core, std::string_view id) override;
  bool try_set_permits(ClientCore& core, int permits) override;
  // The permits less the leases there are, never below 0.
  int64_t available_permits(ClientCore& core) override;

 private:
  // The stored count; nullopt while unset.
  std::optional<int> stored_permits();
  // The operations on the permits' leases, `max_leases` of them at most.
  std::shared_ptr<ZkLockOps> leases(int max_leases) const;

  const ZkLockOps::SessionOf session_;
  const std::string name_;
  const std::string path_;
  const std::string permits_path_;
};

}  // namespace dlock
