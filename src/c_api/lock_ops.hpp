// Runs a lock operation on the core behind a lock handle.
#pragma once

#include <memory>

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
  ReentrantLock ops(*core, lock->resource);
  return work(ops, *core);
}

}  // namespace dlock::c_api
