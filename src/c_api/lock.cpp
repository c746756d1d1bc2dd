// The reentrant lock's entry points.
#include <memory>
#include <optional>
#include <string>

#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_ops.hpp"

namespace {

using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::with_ops;

int acquire(dlock_lock* lock, uint64_t owner, int64_t wait_ms, int64_t lease_ms, dlock_cancel* cancel,
            uint64_t* token_out, bool before_wait = false) {
  return guarded([&] {
    require(lock, "lock");
    const int64_t wait = dlock::c_api::checked_wait(wait_ms);
    dlock::c_api::require_lease(lease_ms);
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      dlock::AcquireRequest request;
      request.owner = owner;
      request.wait_ms = wait;
      request.before_wait = before_wait;
      request.lease_ms = lease_ms;
      request.cancel = cancel != nullptr ? &cancel->cancel : nullptr;
      request.handle = lock;
      request.on_lost = lock->on_lost;
      const std::optional<uint64_t> token = ops.acquire(request);
      if (!token) return DLOCK_NOT_ACQUIRED;
      if (token_out != nullptr) *token_out = *token;
      return DLOCK_OK;
    });
  });
}

int release(dlock_lock* lock, uint64_t owner) {
  return guarded([&] {
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      ops.release(owner);
      return DLOCK_OK;
    });
  });
}

// Reads the owner's hold as the client records it: no round trip.
template <typename Out, typename Read>
int read_hold(dlock_lock* lock, uint64_t owner, Out* out, Read&& read) {
  return guarded([&] {
    require(out, "out");
    return with_ops(lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      *out = read(core.holds().find(lock->ops->hold_key(), owner));
      return DLOCK_OK;
    });
  });
}

int is_held(dlock_lock* lock, uint64_t owner, int* out) {
  return read_hold(lock, owner, out,
                   [](const std::optional<dlock::Hold>& hold) { return hold && !hold->lost ? 1 : 0; });
}

int hold_count(dlock_lock* lock, uint64_t owner, int* out) {
  return read_hold(lock, owner, out,
                   [](const std::optional<dlock::Hold>& hold) { return hold ? hold->count : 0; });
}

int holds_through(dlock_lock* lock, int* out) {
  return guarded([&] {
    require(out, "out");
    return with_ops(lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      *out = core.holds().count_taken_through(lock->ops->hold_key(), lock);
      return DLOCK_OK;
    });
  });
}

int fencing_token(dlock_lock* lock, uint64_t owner, uint64_t* out) {
  return read_hold(lock, owner, out, [&](const std::optional<dlock::Hold>& hold) {
    if (!hold)
      throw dlock::NotOwnerError("fencing_token: the caller does not hold '" + lock->ops->name() + "'");
    return hold->grant.token;
  });
}

}  // namespace

extern "C" {

int dlock_lock_new(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle(client, name, dlock::LockKind::reentrant, out);
}

int dlock_lock_new_nonreentrant(dlock_client* client, const char* name, dlock_lock** out) {
  return dlock::c_api::new_lock_handle(client, name, dlock::LockKind::nonreentrant, out);
}

void dlock_lock_free(dlock_lock* lock) {
  if (lock == nullptr) return;
  lock->on_lost->clear();
  guarded([&] {
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      ops.release_taken_through(lock);
      return DLOCK_OK;
    });
  });
  delete lock;
}

const char* dlock_lock_name(const dlock_lock* lock) {
  return lock != nullptr ? lock->ops->name().c_str() : nullptr;
}

int dlock_lock_acquire(dlock_lock* lock, int64_t wait_ms, int64_t lease_ms, uint64_t* token_out) {
  return acquire(lock, dlock_thread_owner(), wait_ms, lease_ms, nullptr, token_out);
}

int dlock_lock_acquire_owner(dlock_lock* lock, uint64_t owner, int64_t wait_ms, int64_t lease_ms,
                             dlock_cancel* cancel, uint64_t* token_out) {
  return acquire(lock, owner, wait_ms, lease_ms, cancel, token_out);
}

int dlock_lock_try_before_wait_owner(dlock_lock* lock, uint64_t owner, int64_t lease_ms, uint64_t* token_out) {
  return acquire(lock, owner, 0, lease_ms, nullptr, token_out, true);
}

int dlock_lock_release(dlock_lock* lock) {
  return release(lock, dlock_thread_owner());
}

int dlock_lock_release_owner(dlock_lock* lock, uint64_t owner) {
  return release(lock, owner);
}

int dlock_lock_extend(dlock_lock* lock, int64_t lease_ms) {
  return dlock_lock_extend_owner(lock, dlock_thread_owner(), lease_ms);
}

int dlock_lock_extend_owner(dlock_lock* lock, uint64_t owner, int64_t lease_ms) {
  return guarded([&] {
    require(lock, "lock");
    if (lease_ms <= 0 || lease_ms > DLOCK_DURATION_MAX_MS) {
      throw dlock::InvalidArgument("lease_ms: must be 1.." + std::to_string(DLOCK_DURATION_MAX_MS) +
                                   ", got " + std::to_string(lease_ms));
    }
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      ops.extend(owner, lease_ms);
      return DLOCK_OK;
    });
  });
}

int dlock_lock_force_release(dlock_lock* lock) {
  int released = 0;
  return dlock_lock_force_release_checked(lock, &released);
}

int dlock_lock_force_release_checked(dlock_lock* lock, int* released_out) {
  return guarded([&] {
    require(released_out, "released_out");
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      *released_out = ops.force_release() ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_lock_is_locked(dlock_lock* lock, int* out) {
  return guarded([&] {
    require(out, "out");
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      *out = ops.is_locked() ? 1 : 0;
      return DLOCK_OK;
    });
  });
}

int dlock_lock_is_held(dlock_lock* lock, int* out) {
  return is_held(lock, dlock_thread_owner(), out);
}

int dlock_lock_is_held_owner(dlock_lock* lock, uint64_t owner, int* out) {
  return is_held(lock, owner, out);
}

int dlock_lock_hold_count(dlock_lock* lock, int* out) {
  return hold_count(lock, dlock_thread_owner(), out);
}

int dlock_lock_hold_count_owner(dlock_lock* lock, uint64_t owner, int* out) {
  return hold_count(lock, owner, out);
}

int dlock_lock_holds_through(dlock_lock* lock, int* out) {
  return holds_through(lock, out);
}

int dlock_lock_fencing_token(dlock_lock* lock, uint64_t* out) {
  return fencing_token(lock, dlock_thread_owner(), out);
}

int dlock_lock_fencing_token_owner(dlock_lock* lock, uint64_t owner, uint64_t* out) {
  return fencing_token(lock, owner, out);
}

int dlock_lock_ttl(dlock_lock* lock, int64_t* ms_out) {
  return guarded([&] {
    require(ms_out, "ms_out");
    return with_ops(lock, [&](dlock::ReentrantLock& ops, dlock::ClientCore&) {
      *ms_out = ops.ttl_ms();
      return DLOCK_OK;
    });
  });
}

int dlock_lock_set_lost_callback(dlock_lock* lock, dlock_lost_fn fn, void* ctx) {
  return guarded([&] {
    require(lock, "lock");
    lock->client->core();  // DLOCK_E_CLOSED for a closed client
    lock->on_lost->set(dlock::c_api::lost_fn(fn, ctx));
    return DLOCK_OK;
  });
}

}  // extern "C"
