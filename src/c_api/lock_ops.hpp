// Runs a lock operation on the core behind a lock handle.
#pragma once

#include <memory>
#include <string>

#include "backends/redis/lock_ops/lock_resource.hpp"
#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "primitives/lock/reentrant_lock.hpp"

namespace dlock::c_api {

// The core stays alive while its operation runs, even if another thread
// closes the client meanwhile.
template <typename Work>
int with_ops(dlock_lock* lock, Work&& work) {
  require(lock, "lock");
  std::shared_ptr<ClientCore> core = lock->client->core();
  ReentrantLock ops(*core, lock->ops);
  return work(ops, *core);
}

// The reentrant lock behind `lock`, for the calls only a lock has (inspection,
// attempt counts). Throws UnsupportedError for another kind (a side of a
// read-write lock).
inline const LockResource& plain_lock(const dlock_lock* lock, const char* operation) {
  const auto* plain = dynamic_cast<const LockResource*>(lock->ops->held().get());
  if (plain == nullptr) {
    const std::string backend = lock->client->core()->session().scheme();
    if (backend != "redis")
      throw UnsupportedError(std::string(operation) + ": the " + backend + " backend does not serve it");
    throw UnsupportedError(std::string(operation) + ": '" + lock->ops->name() + "' is not a reentrant lock");
  }
  return *plain;
}

// Starts `request`'s acquire through `ops` on the core's async runner;
// `done` gets the status and, when granted, the token (c_api/lock_async.cpp).
void submit_acquire(ClientCore& core, std::shared_ptr<LockOps> ops, const AcquireRequest& request,
                    dlock_done_fn done, void* ctx);
// Tells `done` DLOCK_OK and `token` on the core's async runner's thread, as
// every outcome is told, when there is nothing to wait for (a re-entry, a
// candidate that leads already).
void report_granted(ClientCore& core, uint64_t token, dlock_done_fn done, void* ctx);

// dlock_lock_new and the constructors of the other lock kinds: a handle on
// the lock `name` of `kind`, as the client's backend serves it.
inline int new_lock_handle(dlock_client* client, const char* name, LockKind kind, dlock_lock** out) {
  return guarded([&] {
    require(out, "out");
    *out = nullptr;
    require(client, "client");
    require(name, "name");
    client->client->core();  // DLOCK_E_CLOSED for a closed client
    auto lock = std::make_unique<dlock_lock>();
    lock->client = client->client;
    lock->ops = client->backend->lock(name, kind);
    *out = lock.release();
    return DLOCK_OK;
  });
}

}  // namespace dlock::c_api
