#include "primitives/permit_semaphore/lease_permit_semaphore_ops.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "primitives/lock/acquire_process.hpp"
#include "primitives/lock/reentrant_lock.hpp"
#include "primitives/permit_semaphore/permit_keys.hpp"

namespace dlock {

PermitSemaphoreOps::Wait LeasePermitSemaphoreOps::acquire_wait(ClientCore& core,
                                                               const PermitRequest& request) {
  core.throw_if_closed();
  const int permits = leases_->permits().value_or(0);
  if (permits < 1) {
    const std::shared_ptr<LockOps> ops = leases_->leases(1);
    throw InvalidArgument("acquire a permit of '" + leases_->name() + "': the " + ops->backend() +
                          " backend finds no permits set at " + leases_->permits_location() +
                          " (try_set_permits sets them)");
  }
  AcquireRequest lease;
  lease.owner = PermitId::fresh().owner;  // a hold of its own per permit
  lease.wait_ms = request.wait_ms;
  lease.lease_ms = request.lease_ms;
  lease.cancel = request.cancel;
  lease.handle = request.handle;
  lease.on_lost = request.on_lost;
  // AcquireProcess refuses a fixed lease, naming lease_ms and the backend.
  auto acquire = std::make_shared<AcquireProcess>(ReentrantLock(core, leases_->leases(permits)), lease);
  return {std::make_shared<WaitProcess>(acquire, acquire->spec()),
          [acquire, owner = lease.owner] { return PermitId::text(owner, acquire->token()); }};
}

void LeasePermitSemaphoreOps::release(ClientCore& core, std::string_view id) {
  const PermitId permit = PermitId::parse(id, "permit_id");
  const std::shared_ptr<LockOps> ops = leases_->leases(1);
  const auto not_ours = [&] {
    return NotOwnerError("permit_id: '" + std::string(id) + "' is no permit this client holds of '" +
                         leases_->name() + "' (on " + ops->backend() +
                         " only the client that took a permit releases it)");
  };
  const std::optional<Hold> hold = core.holds().find(ops->hold_key(), permit.owner);
  if (hold && hold->grant.token != permit.token) throw not_ours();
  try {
    // Without a hold it may still settle a release of it that failed before.
    ReentrantLock(core, ops).release(permit.owner);
  } catch (const NotOwnerError&) {
    throw not_ours();
  }
}

bool LeasePermitSemaphoreOps::try_set_permits(ClientCore& core, int permits) {
  core.throw_if_closed();
  // Set once, a count of 0 would leave a semaphore nobody can ever take.
  if (permits < 1) {
    throw InvalidArgument("permits: must be > 0 on the " + std::string(leases_->leases(1)->backend()) +
                          " backend (the count is set once), got " + std::to_string(permits));
  }
  return leases_->try_set_permits(permits);
}

int64_t LeasePermitSemaphoreOps::available_permits(ClientCore& core) {
  core.throw_if_closed();
  const int permits = leases_->permits().value_or(0);
  return std::max<int64_t>(0, permits - leases_->leases_taken());
}

}  // namespace dlock
