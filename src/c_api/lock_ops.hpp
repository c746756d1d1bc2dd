// Runs a lock operation on the core behind a lock handle.
#pragma once

#include <memory>
#include <string>

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

// The reentrant lock behind `lock`, for the calls only a lock has (inspection,
// attempt counts). Throws UnsupportedError for a side of a read-write lock.
inline const LockResource& plain_lock(const dlock_lock* lock, const char* operation) {
  const auto* plain = dynamic_cast<const LockResource*>(lock->resource.get());
  if (plain == nullptr) {
    throw UnsupportedError(std::string(operation) + ": '" + lock->resource->name() +
                           "' is a side of a read-write lock, not a reentrant lock");
  }
  return *plain;
}

}  // namespace dlock::c_api
