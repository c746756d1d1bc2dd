// The leased-permit semaphore's entry points, on the client's backend's
// PermitSemaphoreOps.
#include <cstring>

#include "c_api/async_calls.hpp"
#include "c_api/semaphore_handles.hpp"
#include "common/error.hpp"
#include "core/handle_holds.hpp"
#include "dlock.h"
#include "primitives/permit_semaphore/lease_permit_semaphore_ops.hpp"
#include "primitives/permit_semaphore/permit_keys.hpp"
#include "primitives/permit_semaphore/redis_permit_semaphore_ops.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::require_permits;

// The core stays alive while the operation runs, even if another thread
// closes the client meanwhile.
template <typename Work>
int with_permits(dlock_permit_semaphore* semaphore, Work&& work) {
  require(semaphore, "semaphore");
  std::shared_ptr<dlock::ClientCore> core = semaphore->client->core();
  return work(*semaphore->ops, *core);
}

dlock::PermitRequest permit_request(dlock_permit_semaphore* semaphore, int64_t wait, int64_t lease_ms,
                                   dlock_cancel* cancel) {
  dlock::PermitRequest request;
  request.wait_ms = wait;
  request.lease_ms = lease_ms;
  request.cancel = cancel != nullptr ? &cancel->cancel : nullptr;
  request.handle = semaphore;
  request.on_lost = semaphore->on_lost;
  return request;
}

}  // namespace

extern "C" {

int dlock_permit_semaphore_new(dlock_client* client, const char* name, dlock_permit_semaphore** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(client, "client");
    require(name, "name");
    auto semaphore = std::make_unique<dlock_permit_semaphore>();
    semaphore->client = client->client;
    // The backend's permits as lock holds (ZooKeeper), else Redisson's layout.
    const std::shared_ptr<dlock::PermitLeases> leases = client->backend->permit_leases(name);
    if (leases) {
      semaphore->ops = std::make_shared<dlock::LeasePermitSemaphoreOps>(leases);
    } else {
      semaphore->ops = std::make_shared<dlock::RedisPermitSemaphoreOps>(name);
    }
    *out = semaphore.release();
    return DLOCK_OK;
  });
}

void dlock_permit_semaphore_free(dlock_permit_semaphore* semaphore) {
  if (semaphore == nullptr) return;
  semaphore->on_lost->clear();
  guarded([&] {
    return with_permits(semaphore, [&](dlock::PermitSemaphoreOps&, dlock::ClientCore& core) {
      dlock::release_holds_taken_through(core, semaphore);
      return DLOCK_OK;
    });
  });
  delete semaphore;
}

int dlock_permit_semaphore_acquire(dlock_permit_semaphore* semaphore, int64_t wait_ms, int64_t lease_ms,
                                   dlock_cancel* cancel, char* id_out, size_t id_size) {
  return guarded([&] {
    require(id_out, "id_out");
    if (id_size < DLOCK_PERMIT_ID_SIZE) {
      throw dlock::InvalidArgument("id_size: must be at least DLOCK_PERMIT_ID_SIZE (" +
                                   std::to_string(DLOCK_PERMIT_ID_SIZE) + "), got " +
                                   std::to_string(id_size));
    }
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    dlock::c_api::require_lease(lease_ms);
    return with_permits(semaphore, [&](dlock::PermitSemaphoreOps& ops, dlock::ClientCore& core) {
      const dlock::PermitSemaphoreOps::Wait acquire =
          ops.acquire_wait(core, permit_request(semaphore, wait, lease_ms, cancel));
      if (!acquire.process->run()) return DLOCK_NOT_ACQUIRED;
      const std::string id = acquire.permit_id();
      std::memcpy(id_out, id.c_str(), id.size() + 1);
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_acquire_async(dlock_permit_semaphore* semaphore, int64_t wait_ms, int64_t lease_ms,
                                         dlock_cancel* cancel, dlock_permit_done_fn done, void* ctx) {
  return guarded([&] {
    require(semaphore, "semaphore");
    dlock::c_api::require_callback(done);
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    dlock::c_api::require_lease(lease_ms);
    // The job lives on the core's runner, which the core outlives.
    std::shared_ptr<dlock::ClientCore> core = semaphore->client->core();
    dlock::PermitSemaphoreOps::Wait wait_for =
        semaphore->ops->acquire_wait(*core, permit_request(semaphore, wait, lease_ms, cancel));
    dlock::submit_wait(core->async_runner(), std::move(wait_for.process),
                       [id = std::move(wait_for.permit_id), done, ctx](bool granted, const std::exception_ptr& error) {
                         const int status = dlock::c_api::async_status(granted, error);
                         done(status, status == DLOCK_OK ? id().c_str() : "", status < 0 ? dlock_last_error() : "",
                              ctx);
                       });
    return DLOCK_OK;
  });
}

int dlock_permit_semaphore_release(dlock_permit_semaphore* semaphore, const char* permit_id) {
  return guarded([&] {
    require(permit_id, "permit_id");
    return with_permits(semaphore, [&](dlock::PermitSemaphoreOps& ops, dlock::ClientCore& core) {
      ops.release(core, permit_id);
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_try_release(dlock_permit_semaphore* semaphore, const char* permit_id,
                                       int* released_out) {
  return guarded([&] {
    require(permit_id, "permit_id");
    require(released_out, "released_out");
    return with_permits(semaphore, [&](dlock::PermitSemaphoreOps& ops, dlock::ClientCore& core) {
      // As a release, answering 0 instead of DLOCK_E_LOST or DLOCK_E_NOT_OWNER
      // (a loss still reaches the lost callback).
      try {
        ops.release(core, permit_id);
        *released_out = 1;
      } catch (const dlock::LostError&) {
        *released_out = 0;
      } catch (const dlock::NotOwnerError&) {
        *released_out = 0;
      }
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_try_set_permits(dlock_permit_semaphore* semaphore, int permits, int* set_out) {
  return guarded([&] {
    require(set_out, "set_out");
    require_permits(permits, true);
    return with_permits(semaphore, [&](dlock::PermitSemaphoreOps& ops, dlock::ClientCore& core) {
      *set_out = ops.try_set_permits(core, permits) ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_available_permits(dlock_permit_semaphore* semaphore, int64_t* out) {
  return guarded([&] {
    require(out, "out");
    return with_permits(semaphore, [&](dlock::PermitSemaphoreOps& ops, dlock::ClientCore& core) {
      *out = ops.available_permits(core);
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_set_lost_callback(dlock_permit_semaphore* semaphore, dlock_permit_lost_fn fn,
                                             void* ctx) {
  return guarded([&] {
    require(semaphore, "semaphore");
    semaphore->client->core();  // DLOCK_E_CLOSED for a closed client
    if (fn == nullptr) {
      semaphore->on_lost->clear();
    } else {
      // A permit's hold is keyed by the two halves of its id (owner, token).
      semaphore->on_lost->set([fn, ctx](const std::string& name, uint64_t owner, uint64_t token) {
        fn(name.c_str(), dlock::PermitId::text(owner, token).c_str(), ctx);
      });
    }
    return DLOCK_OK;
  });
}

}  // extern "C"
