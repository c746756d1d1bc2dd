// The leased-permit semaphore on a backend whose permits are holds of a lock
// kind (core/permit_leases.hpp; ZooKeeper: Curator's InterProcessSemaphoreV2,
// a permit one of its leases; PostgreSQL and MySQL: a lease row each). Each
// permit is a hold of the client under an owner id of its own (PermitId's),
// taken and kept through the lock's flow (ReentrantLock and AcquireProcess
// over the backend's lease ops): a backend without fixed leases keeps it for
// the session (ZooKeeper: lease_ms -1 only, else InvalidArgument naming
// lease_ms and the backend), the watchdog's keeper renews or checks it, a loss reaches
// the lost callback with the permit's id. The id is PermitId::text(owner, the
// grant's token): only the client that took a permit can release it.
#pragma once

#include <memory>
#include <string_view>

#include "core/permit_leases.hpp"
#include "core/permit_semaphore_ops.hpp"

namespace dlock {

class LeasePermitSemaphoreOps final : public PermitSemaphoreOps {
 public:
  explicit LeasePermitSemaphoreOps(std::shared_ptr<PermitLeases> leases) : leases_(std::move(leases)) {}

  // Throws InvalidArgument while no permits (or 0) are stored.
  Wait acquire_wait(ClientCore& core, const PermitRequest& request) override;
  // Throws NotOwnerError for an id that is no permit of this client's.
  void release(ClientCore& core, std::string_view id) override;
  // Throws InvalidArgument naming permits for a count below 1.
  bool try_set_permits(ClientCore& core, int permits) override;
  // The permits less the leases there are, never below 0.
  int64_t available_permits(ClientCore& core) override;

 private:
  const std::shared_ptr<PermitLeases> leases_;
};

}  // namespace dlock
