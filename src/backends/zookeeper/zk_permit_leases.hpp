// The leased-permit semaphore's leases on ZooKeeper (core/permit_leases.hpp):
// Curator's InterProcessSemaphoreV2 at zk_paths' lock_path(name), a permit one
// of its leases (<path>/leases/_c_<uuid>-lease-<sequence>, through a ZkLockOps
// on ZkLockLayout::semaphore). Its max leases are the count at
// <path>/permits, a persistent node holding a 4-byte big-endian int as
// Curator's SharedCount stores one (so Curator can read it through
// InterProcessSemaphoreV2(client, path, new SharedCount(client, path +
// "/permits", n))), created by try_set_permits only while absent, as
// Redisson's trySetPermits.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backends/zookeeper/zk_lock_ops.hpp"
#include "core/permit_leases.hpp"

namespace dlock {

class ZkPermitLeases final : public PermitLeases {
 public:
  // Throws InvalidArgument for a name zk_paths refuses.
  ZkPermitLeases(ZkLockOps::SessionOf session, std::string name);

  const std::string& name() const override { return name_; }
  const std::string& permits_location() const override { return permits_path_; }
  // Throws ProtocolError when the node holds anything but 4 bytes.
  std::optional<int> permits() override;
  bool try_set_permits(int permits) override;
  int64_t leases_taken() override;
  std::shared_ptr<LockOps> leases(int max_leases) override;

 private:
  const ZkLockOps::SessionOf session_;
  const std::string name_;
  const std::string path_;
  const std::string permits_path_;
};

}  // namespace dlock
