// The reentrant lock's snapshot on Redis (inspect.lua): its hash's fields, its
// PTTL and its fencing counter, in one round trip.
#pragma once

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "core/client_core.hpp"
#include "core/lock_inspection.hpp"

namespace dlock {

// Throws ProtocolError when the key is not a lock (another type, or a hash
// whose fields are not lock holders).
LockInspection inspect_lock(ClientCore& core, const LockKeys& keys);

}  // namespace dlock
