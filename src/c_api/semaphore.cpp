// The semaphore's entry points.
#include "c_api/async_calls.hpp"
#include "c_api/semaphore_handles.hpp"
#include "dlock.h"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::require_permits;

template <typename Work>
int with_semaphore(dlock_semaphore* semaphore, Work&& work) {
  return dlock::c_api::with_primitive<dlock::Semaphore>(semaphore, "semaphore", work);
}

}  // namespace

extern "C" {

int dlock_semaphore_new(dlock_client* client, const char* name, dlock_semaphore** out) {
  return guarded([&] { return dlock::c_api::new_handle(client, name, out); });
}

void dlock_semaphore_free(dlock_semaphore* semaphore) {
  delete semaphore;
}

int dlock_semaphore_acquire(dlock_semaphore* semaphore, int permits, int64_t wait_ms, dlock_cancel* cancel) {
  return guarded([&] {
    require_permits(permits);
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    return with_semaphore(semaphore, [&](dlock::Semaphore& ops) {
      const bool taken =
          ops.acquire(dlock_thread_owner(), permits, wait, cancel != nullptr ? &cancel->cancel : nullptr);
      return taken ? DLOCK_OK : DLOCK_NOT_ACQUIRED;
    });
  });
}

int dlock_semaphore_acquire_async(dlock_semaphore* semaphore, int permits, int64_t wait_ms,
                                  dlock_cancel* cancel, dlock_done_fn done, void* ctx) {
  return guarded([&] {
    require(semaphore, "semaphore");
    dlock::c_api::require_callback(done);
    require_permits(permits);
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    // The job lives on the core's runner, which the core outlives.
    std::shared_ptr<dlock::ClientCore> core = semaphore->client->core();
    dlock::Semaphore ops(*core, semaphore->state);
    dlock::c_api::submit_reporting(
        core->async_runner(),
        ops.acquire_wait(dlock_thread_owner(), permits, wait, cancel != nullptr ? &cancel->cancel : nullptr),
        done, ctx);
    return DLOCK_OK;
  });
}

int dlock_semaphore_release(dlock_semaphore* semaphore, int permits) {
  return guarded([&] {
    require_permits(permits);
    return with_semaphore(semaphore, [&](dlock::Semaphore& ops) {
      ops.release(dlock_thread_owner(), permits);
      return DLOCK_OK;
    });
  });
}

int dlock_semaphore_try_set_permits(dlock_semaphore* semaphore, int permits, int* set_out) {
  return guarded([&] {
    require(set_out, "set_out");
    require_permits(permits, true);
    return with_semaphore(semaphore, [&](dlock::Semaphore& ops) {
      *set_out = ops.try_set_permits(permits) ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_semaphore_available_permits(dlock_semaphore* semaphore, int64_t* out) {
  return guarded([&] {
    require(out, "out");
    return with_semaphore(semaphore, [&](dlock::Semaphore& ops) {
      *out = ops.available_permits();
      return DLOCK_OK;
    });
  });
}

}  // extern "C"
