// The count-down latch's entry points.
#include "c_api/async_calls.hpp"
#include "c_api/semaphore_handles.hpp"
#include "dlock.h"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;

template <typename Work>
int with_latch(dlock_count_down_latch* latch, Work&& work) {
  return dlock::c_api::with_primitive<dlock::CountDownLatch>(latch, "latch", work);
}

}  // namespace

extern "C" {

int dlock_count_down_latch_new(dlock_client* client, const char* name, dlock_count_down_latch** out) {
  return guarded([&] { return dlock::c_api::new_handle(client, name, out); });
}

void dlock_count_down_latch_free(dlock_count_down_latch* latch) {
  delete latch;
}

int dlock_count_down_latch_try_set_count(dlock_count_down_latch* latch, int64_t count, int* set_out) {
  return guarded([&] {
    require(set_out, "set_out");
    if (count <= 0) throw dlock::InvalidArgument("count: must be > 0, got " + std::to_string(count));
    return with_latch(latch, [&](dlock::CountDownLatch& ops) {
      *set_out = ops.try_set_count(count) ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_count_down_latch_count_down(dlock_count_down_latch* latch) {
  return guarded([&] {
    return with_latch(latch, [&](dlock::CountDownLatch& ops) {
      ops.count_down(dlock_thread_owner());
      return DLOCK_OK;
    });
  });
}

int dlock_count_down_latch_get_count(dlock_count_down_latch* latch, int64_t* out) {
  return guarded([&] {
    require(out, "out");
    return with_latch(latch, [&](dlock::CountDownLatch& ops) {
      *out = ops.count();
      return DLOCK_OK;
    });
  });
}

int dlock_count_down_latch_await(dlock_count_down_latch* latch, int64_t wait_ms, dlock_cancel* cancel) {
  return guarded([&] {
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    return with_latch(latch, [&](dlock::CountDownLatch& ops) {
      return ops.await(wait, cancel != nullptr ? &cancel->cancel : nullptr) ? DLOCK_OK : DLOCK_NOT_ACQUIRED;
    });
  });
}

int dlock_count_down_latch_await_async(dlock_count_down_latch* latch, int64_t wait_ms, dlock_cancel* cancel,
                                       dlock_done_fn done, void* ctx) {
  return guarded([&] {
    require(latch, "latch");
    dlock::c_api::require_callback(done);
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    // The job lives on the core's runner, which the core outlives.
    std::shared_ptr<dlock::ClientCore> core = latch->client->core();
    dlock::c_api::submit_reporting(
        core->async_runner(),
        dlock::CountDownLatch(*core, latch->state).await_wait(wait, cancel != nullptr ? &cancel->cancel : nullptr),
        done, ctx);
    return DLOCK_OK;
  });
}

}  // extern "C"
