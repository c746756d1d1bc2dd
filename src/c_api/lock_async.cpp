// The reentrant lock's asynchronous entry points: the work runs as a job on
// the client's async runner, and its outcome goes to the caller's callback
// through the same status funnel as the blocking calls.
#include <memory>
#include <optional>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "primitives/lock/acquire_process.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;

void require_callback(dlock_done_fn done) {
  if (done == nullptr) throw dlock::InvalidArgument("done: must not be NULL");
}

// Tells the caller: the status, the token, and the error's text.
void report(dlock_done_fn done, void* ctx, int status, uint64_t token) {
  done(status, token, status < 0 ? dlock_last_error() : "", ctx);
}

}  // namespace

extern "C" {

int dlock_lock_acquire_async(dlock_lock* lock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                             dlock_cancel* cancel, dlock_done_fn done, void* ctx) {
  return guarded([&] {
    require(lock, "lock");
    require_callback(done);
    dlock::AcquireRequest request;
    request.owner = owner;
    request.wait_ms = dlock::c_api::checked_wait(wait_ms);
    dlock::c_api::require_lease(lease_ms);
    request.lease_ms = lease_ms;
    request.cancel = cancel != nullptr ? &cancel->cancel : nullptr;
    request.handle = lock;
    request.on_lost = lock->on_lost;
    // The job lives on the core's runner, which the core outlives: the
    // process may refer to the core without owning it.
    std::shared_ptr<dlock::ClientCore> core = lock->client->core();
    auto process =
        std::make_shared<dlock::AcquireProcess>(dlock::ReentrantLock(*core, lock->resource), request);
    dlock::Waiter* waiter = &process->waiter();
    core->async_runner().submit(
        [process, done, ctx]() -> std::optional<dlock::Clock::time_point> {
          std::optional<dlock::Clock::time_point> again;
          uint64_t token = 0;
          const int status = guarded([&] {
            const dlock::AcquireProcess::Step step = process->step();
            if (!step.done) {
              again = step.wake_at;
              return DLOCK_OK;
            }
            if (!step.token) return DLOCK_NOT_ACQUIRED;
            token = *step.token;
            return DLOCK_OK;
          });
          if (!again) report(done, ctx, status, token);
          return again;
        },
        waiter);
    return DLOCK_OK;
  });
}

int dlock_lock_release_async(dlock_lock* lock, uint64_t owner, dlock_done_fn done, void* ctx) {
  return guarded([&] {
    require(lock, "lock");
    require_callback(done);
    std::shared_ptr<dlock::ClientCore> core = lock->client->core();
    dlock::ClientCore* job_core = core.get();  // outlives the job, as above
    core->async_runner().submit(
        [job_core, resource = lock->resource, owner, done, ctx]() -> std::optional<dlock::Clock::time_point> {
          const int status = guarded([&] {
            dlock::ReentrantLock(*job_core, resource).release(owner);
            return DLOCK_OK;
          });
          report(done, ctx, status, 0);
          return std::nullopt;
        });
    return DLOCK_OK;
  });
}

}  // extern "C"
