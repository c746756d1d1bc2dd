// The RedLock's entry points.
#include <memory>
#include <optional>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_group_members.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;

int acquire(dlock_redlock* redlock, uint64_t owner, int64_t wait_ms, int64_t lease_ms, dlock_cancel* cancel,
            int64_t* validity_ms_out) {
  return guarded([&] {
    require(redlock, "redlock");
    const dlock::GroupRequest request = dlock::c_api::group_request(owner, wait_ms, lease_ms, cancel);
    const std::optional<int64_t> validity = redlock->lock->acquire(request);
    if (!validity) return DLOCK_NOT_ACQUIRED;
    if (validity_ms_out != nullptr) *validity_ms_out = *validity;
    return DLOCK_OK;
  });
}

int release(dlock_redlock* redlock, uint64_t owner) {
  return guarded([&] {
    require(redlock, "redlock");
    redlock->lock->release(owner);
    return DLOCK_OK;
  });
}

int validity(dlock_redlock* redlock, uint64_t owner, int64_t* ms_out) {
  return guarded([&] {
    require(redlock, "redlock");
    require(ms_out, "ms_out");
    *ms_out = redlock->lock->validity_ms(owner);
    return DLOCK_OK;
  });
}

}  // namespace

extern "C" {

int dlock_redlock_new(dlock_lock* const* members, size_t count, dlock_redlock** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    auto redlock = std::make_unique<dlock_redlock>();
    redlock->lock = std::make_unique<dlock::RedLock>(dlock::c_api::members_from(members, count));
    *out = redlock.release();
    return DLOCK_OK;
  });
}

void dlock_redlock_free(dlock_redlock* redlock) {
  if (redlock == nullptr) return;
  redlock->lock->group().on_lost().clear();
  redlock->lock->group().release_all();
  delete redlock;
}

int dlock_redlock_acquire(dlock_redlock* redlock, int64_t wait_ms, int64_t lease_ms,
                          int64_t* validity_ms_out) {
  return acquire(redlock, dlock_thread_owner(), wait_ms, lease_ms, nullptr, validity_ms_out);
}

int dlock_redlock_acquire_owner(dlock_redlock* redlock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                                dlock_cancel* cancel, int64_t* validity_ms_out) {
  return acquire(redlock, owner, wait_ms, lease_ms, cancel, validity_ms_out);
}

int dlock_redlock_release(dlock_redlock* redlock) {
  return release(redlock, dlock_thread_owner());
}

int dlock_redlock_release_owner(dlock_redlock* redlock, uint64_t owner) {
  return release(redlock, owner);
}

int dlock_redlock_validity(dlock_redlock* redlock, int64_t* ms_out) {
  return validity(redlock, dlock_thread_owner(), ms_out);
}

int dlock_redlock_validity_owner(dlock_redlock* redlock, uint64_t owner, int64_t* ms_out) {
  return validity(redlock, owner, ms_out);
}

int dlock_redlock_hold_count_owner(dlock_redlock* redlock, uint64_t owner, int* out) {
  return guarded([&] {
    require(redlock, "redlock");
    return dlock::c_api::group_hold_count(redlock->lock->group(), owner, out);
  });
}

int dlock_redlock_is_held_owner(dlock_redlock* redlock, uint64_t owner, int* out) {
  return guarded([&] {
    require(redlock, "redlock");
    return dlock::c_api::group_is_held(redlock->lock->group(), owner, out);
  });
}

int dlock_redlock_set_lost_callback(dlock_redlock* redlock, dlock_lost_fn fn, void* ctx) {
  return guarded([&] {
    require(redlock, "redlock");
    return dlock::c_api::group_set_lost_callback(redlock->lock->group(), fn, ctx);
  });
}

int dlock_redlock_acquire_async(dlock_redlock* redlock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                                 dlock_cancel* cancel, dlock_done_fn done, void* ctx) {
  return dlock::c_api::group_acquire_async(redlock, "redlock", owner, wait_ms, lease_ms, cancel, done, ctx);
}

}  // extern "C"
