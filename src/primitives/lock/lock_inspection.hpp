// A snapshot of one lock, for tools that show its state (inspect.lua): who
// holds it, its remaining lease and its last fencing token.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "core/client_core.hpp"

namespace dlock {

struct LockHolder {
  std::string field;   // <client-id>:<owner>, or a kept hold's <client-id>:<owner>:kept
  int64_t hold_count;  // as Redis records it
};

struct LockInspection {
  std::vector<LockHolder> holders;
  int64_t ttl_ms = -2;  // PTTL: -2 not locked, -1 no expiry
  std::optional<uint64_t> last_token;
};

// One round trip. Throws ProtocolError when the key is not a lock.
LockInspection inspect_lock(ClientCore& core, const LockKeys& keys);

}  // namespace dlock
