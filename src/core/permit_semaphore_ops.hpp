// What the leased-permit semaphore's C calls (dlock_permit_semaphore_*) run
// on for one name: Redisson's RPermitExpirableSemaphore on Redis
// (RedisPermitSemaphoreOps), the backend's lock holds where its permits are
// those (LeasePermitSemaphoreOps over Backend::permit_leases: ZooKeeper's
// InterProcessSemaphoreV2, the SQL backends' lease rows). Each call runs on the core of the moment.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/cancel.hpp"
#include "core/client_core.hpp"
#include "core/lost_callback.hpp"
#include "core/wait_process.hpp"

namespace dlock {

struct PermitRequest {
  int64_t wait_ms = 0;    // 0 one attempt, -1 forever
  int64_t lease_ms = -1;  // -1 watchdog
  Cancel* cancel = nullptr;
  const void* handle = nullptr;
  std::shared_ptr<LostCallback> on_lost;
};

class PermitSemaphoreOps {
 public:
  // An acquire as a wait for a driver to run (core/wait_process.hpp), and
  // the permit's id (32 hex digits, PermitId) once it was granted.
  struct Wait {
    std::shared_ptr<WaitProcess> process;
    std::function<std::string()> permit_id;
  };

  virtual ~PermitSemaphoreOps() = default;
  // Throws InvalidArgument (a lease the backend cannot keep), and what the
  // wait's attempts throw: InterruptedError, ClosedError, ConnectionError,
  // ProtocolError.
  virtual Wait acquire_wait(ClientCore& core, const PermitRequest& request) = 0;
  // Releases the permit `id`. Throws LostError when this client held it and
  // lost it, NotOwnerError when it holds no permit by that id.
  virtual void release(ClientCore& core, std::string_view id) = 0;
  // Sets the permits when they were not set yet; false when they were.
  virtual bool try_set_permits(ClientCore& core, int permits) = 0;
  virtual int64_t available_permits(ClientCore& core) = 0;
};

}  // namespace dlock
