// The reentrant lock's asynchronous entry points: the work runs as a job on
// the client's async runner, and its outcome goes to the caller's callback
// through the same status funnel as the blocking calls.
#include <memory>
#include <optional>

#include "c_api/async_calls.hpp"
#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_ops.hpp"
#include "primitives/lock/acquire_process.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::report;
using dlock::c_api::require;
using dlock::c_api::require_callback;

}  // namespace

namespace dlock::c_api {

void submit_acquire(ClientCore& core, std::shared_ptr<LockOps> ops, const AcquireRequest& request,
                    dlock_done_fn done, void* ctx) {
  auto acquire = std::make_shared<AcquireProcess>(ReentrantLock(core, std::move(ops)), request);
  // The job lives on the core's runner, which the core outlives: the
  // attempts may refer to the core without owning it.
  submit_wait(core.async_runner(), std::make_shared<WaitProcess>(acquire, acquire->spec()),
              [acquire, done, ctx](bool granted, std::exception_ptr error) {
                const int status = async_status(granted, error);
                report(done, ctx, status, status == DLOCK_OK ? acquire->token() : 0);
              });
}

void report_granted(ClientCore& core, uint64_t token, dlock_done_fn done, void* ctx) {
  core.async_runner().submit([done, ctx, token]() -> std::optional<Clock::time_point> {
    report(done, ctx, DLOCK_OK, token);
    return std::nullopt;
  });
}

}  // namespace dlock::c_api

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
    std::shared_ptr<dlock::ClientCore> core = lock->client->core();
    if (const std::optional<uint64_t> token = dlock::ReentrantLock(*core, lock->ops).reenter(owner)) {
      // Counted already, with no round trip.
      dlock::c_api::report_granted(*core, *token, done, ctx);
      return DLOCK_OK;
    }
    dlock::c_api::submit_acquire(*core, lock->ops, request, done, ctx);
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
        [job_core, ops = lock->ops, owner, done, ctx]() -> std::optional<dlock::Clock::time_point> {
          const int status = guarded([&] {
            dlock::ReentrantLock(*job_core, ops).release(owner);
            return DLOCK_OK;
          });
          report(done, ctx, status, 0);
          return std::nullopt;
        });
    return DLOCK_OK;
  });
}

}  // extern "C"
