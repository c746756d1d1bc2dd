// The leased-permit semaphore's entry points.
#include "primitives/permit_semaphore/permit_semaphore.hpp"

#include <cstring>

#include "c_api/async_calls.hpp"
#include "c_api/semaphore_handles.hpp"
#include "dlock.h"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::require_permits;

template <typename Work>
int with_permits(dlock_permit_semaphore* semaphore, Work&& work) {
  return dlock::c_api::with_primitive<dlock::PermitSemaphore>(semaphore, "semaphore", work);
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
  return guarded([&] { return dlock::c_api::new_handle(client, name, out); });
}

void dlock_permit_semaphore_free(dlock_permit_semaphore* semaphore) {
  if (semaphore == nullptr) return;
  semaphore->on_lost->clear();
  guarded([&] {
    return with_permits(semaphore, [&](dlock::PermitSemaphore& ops) {
      ops.release_taken_through(semaphore);
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
    return with_permits(semaphore, [&](dlock::PermitSemaphore& ops) {
      const std::optional<std::string> id = ops.acquire(permit_request(semaphore, wait, lease_ms, cancel));
      if (!id) return DLOCK_NOT_ACQUIRED;
      std::memcpy(id_out, id->c_str(), id->size() + 1);
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
    dlock::PermitSemaphore::Wait wait_for =
        dlock::PermitSemaphore(*core, semaphore->state).acquire_wait(permit_request(semaphore, wait, lease_ms, cancel));
    dlock::submit_wait(core->async_runner(), std::move(wait_for.process),
                       [id = std::move(wait_for.permit_id), done, ctx](bool granted, const std::exception_ptr& error) {
                         const int status = dlock::c_api::async_status(granted, error);
                         done(status, status == DLOCK_OK ? id.c_str() : "", status < 0 ? dlock_last_error() : "",
                              ctx);
                       });
    return DLOCK_OK;
  });
}

int dlock_permit_semaphore_release(dlock_permit_semaphore* semaphore, const char* permit_id) {
  return guarded([&] {
    require(permit_id, "permit_id");
    return with_permits(semaphore, [&](dlock::PermitSemaphore& ops) {
      ops.release(permit_id);
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_try_release(dlock_permit_semaphore* semaphore, const char* permit_id,
                                       int* released_out) {
  return guarded([&] {
    require(permit_id, "permit_id");
    require(released_out, "released_out");
    return with_permits(semaphore, [&](dlock::PermitSemaphore& ops) {
      *released_out = ops.try_release(permit_id) ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_try_set_permits(dlock_permit_semaphore* semaphore, int permits, int* set_out) {
  return guarded([&] {
    require(set_out, "set_out");
    require_permits(permits, true);
    return with_permits(semaphore, [&](dlock::PermitSemaphore& ops) {
      *set_out = ops.try_set_permits(permits) ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_permit_semaphore_available_permits(dlock_permit_semaphore* semaphore, int64_t* out) {
  return guarded([&] {
    require(out, "out");
    return with_permits(semaphore, [&](dlock::PermitSemaphore& ops) {
      *out = ops.available_permits();
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
