// What a backend whose leased permits are holds of a lock kind gives the
// leased-permit semaphore for one name (ZooKeeper: Curator's
// InterProcessSemaphoreV2, a permit one of its leases; PostgreSQL and MySQL:
// a row of dlock_semaphore_lease each): where the number of
// permits is kept, and the lock ops its leases are taken through. The
// semaphore's flow over it is primitives/permit_semaphore's
// LeasePermitSemaphoreOps; a backend with a layout of its own (Redis:
// Redisson's RPermitExpirableSemaphore) gives none (Backend::permit_leases).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/lock_ops.hpp"

namespace dlock {

class PermitLeases {
 public:
  virtual ~PermitLeases() = default;
  // The name the caller gave.
  virtual const std::string& name() const = 0;
  // Where the count is kept, for errors: "/app/slots/permits".
  virtual const std::string& permits_location() const = 0;
  // The stored count; nullopt while unset.
  virtual std::optional<int> permits() = 0;
  // Stores `permits` unless a count is stored already; whether it did.
  virtual bool try_set_permits(int permits) = 0;
  // The leases there are, held or about to be counted.
  virtual int64_t leases_taken() = 0;
  // The lock ops a lease is taken, kept and released through, `max_leases`
  // at most at once (how many does not matter to a release). Their hold key
  // is the same whatever `max_leases`.
  virtual std::shared_ptr<LockOps> leases(int max_leases) = 0;
};

}  // namespace dlock
