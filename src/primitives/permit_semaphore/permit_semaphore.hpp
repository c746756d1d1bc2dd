// A semaphore of leased permits (Redisson's RPermitExpirableSemaphore): each
// permit taken has an id and a lease; a permit taken with lease -1 is renewed
// by the client's watchdog like a lock, and a permit whose holder crashed
// returns to the pool when its lease ends (any acquire reclaims it). Losing a
// permit is never silent: the lost callback once, DLOCK_E_LOST on release.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/cancel.hpp"
#include "core/client_core.hpp"
#include "core/lost_callback.hpp"
#include "core/permit_semaphore_ops.hpp"
#include "core/wait_process.hpp"
#include "primitives/permit_semaphore/permit_resource.hpp"

namespace dlock {

class PermitSemaphore {
 public:
  PermitSemaphore(ClientCore& core, std::shared_ptr<const PermitResource> resource)
      : core_(core), resource_(std::move(resource)) {}

  // An acquire as a wait for a driver to run (core/wait_process.hpp), and
  // the permit's id (32 hex digits, chosen before the wait). The driver's run
  // throws InterruptedError, ClosedError, ConnectionError, ProtocolError.
  PermitSemaphoreOps::Wait acquire_wait(const PermitRequest& request);
  // Releases the permit `id` (any holder's, as in Redisson). Throws
  // LostError when this client held it and lost it, NotOwnerError when
  // nobody holds it (released already, or its lease ended).
  void release(std::string_view id);
  // Sets the permits when the semaphore does not exist yet; false when it did.
  bool try_set_permits(int permits);
  // Available permits, after reclaiming those whose lease ended.
  int64_t available_permits();

 private:
  friend class PermitAcquire;
  const PermitKeys& keys() const { return resource_->keys; }
  void record_grant(const PermitRequest& request, const PermitId& id, int64_t lease_ms,
                    Clock::time_point sent_at);
  bool run_release(const std::string& raw_id);
  // An acquire that failed ambiguously is withdrawn: the permit returned if it was granted.
  void withdraw_later(const PermitId& id, const std::string& record, const std::string& request,
                      const std::string& what);

  ClientCore& core_;
  std::shared_ptr<const PermitResource> resource_;
};

}  // namespace dlock
