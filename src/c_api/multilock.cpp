// The MultiLock's entry points.
#include <memory>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_group_members.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;

int acquire(dlock_multilock* multilock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
            dlock_cancel* cancel) {
  return guarded([&] {
    require(multilock, "multilock");
    const dlock::GroupRequest request = dlock::c_api::group_request(owner, wait_ms, lease_ms, cancel);
    return multilock->lock->acquire(request) ? DLOCK_OK : DLOCK_NOT_ACQUIRED;
  });
}

int release(dlock_multilock* multilock, uint64_t owner) {
  return guarded([&] {
    require(multilock, "multilock");
    multilock->lock->release(owner);
    return DLOCK_OK;
  });
}

}  // namespace

extern "C" {

int dlock_multilock_new(dlock_lock* const* members, size_t count, dlock_multilock** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    auto multilock = std::make_unique<dlock_multilock>();
    multilock->lock = std::make_unique<dlock::MultiLock>(dlock::c_api::members_from(members, count));
    *out = multilock.release();
    return DLOCK_OK;
  });
}

void dlock_multilock_free(dlock_multilock* multilock) {
  if (multilock == nullptr) return;
  multilock->lock->group().on_lost().clear();
  multilock->lock->group().release_all();
  delete multilock;
}

int dlock_multilock_acquire(dlock_multilock* multilock, int64_t wait_ms, int64_t lease_ms) {
  return acquire(multilock, dlock_thread_owner(), wait_ms, lease_ms, nullptr);
}

int dlock_multilock_acquire_owner(dlock_multilock* multilock, uint64_t owner, int64_t wait_ms,
                                  int64_t lease_ms, dlock_cancel* cancel) {
  return acquire(multilock, owner, wait_ms, lease_ms, cancel);
}

int dlock_multilock_release(dlock_multilock* multilock) {
  return release(multilock, dlock_thread_owner());
}

int dlock_multilock_release_owner(dlock_multilock* multilock, uint64_t owner) {
  return release(multilock, owner);
}

int dlock_multilock_hold_count_owner(dlock_multilock* multilock, uint64_t owner, int* out) {
  return guarded([&] {
    require(multilock, "multilock");
    return dlock::c_api::group_hold_count(multilock->lock->group(), owner, out);
  });
}

int dlock_multilock_is_held_owner(dlock_multilock* multilock, uint64_t owner, int* out) {
  return guarded([&] {
    require(multilock, "multilock");
    return dlock::c_api::group_is_held(multilock->lock->group(), owner, out);
  });
}

int dlock_multilock_set_lost_callback(dlock_multilock* multilock, dlock_lost_fn fn, void* ctx) {
  return guarded([&] {
    require(multilock, "multilock");
    return dlock::c_api::group_set_lost_callback(multilock->lock->group(), fn, ctx);
  });
}

int dlock_multilock_acquire_async(dlock_multilock* multilock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                                 dlock_cancel* cancel, dlock_done_fn done, void* ctx) {
  return dlock::c_api::group_acquire_async(multilock, "multilock", owner, wait_ms, lease_ms, cancel, done, ctx);
}

}  // extern "C"
