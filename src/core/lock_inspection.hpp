// A snapshot of one lock, for tools that show its state (dlock_lock_inspect,
// `dlock status`): who holds it, its remaining lease and its last fencing
// token. Each backend fills it its own way (LockOps::inspect).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlock {

struct LockHolder {
  std::string field;   // <client-id>:<owner> (Redis: a kept hold's <client-id>:<owner>:kept)
  int64_t hold_count;  // as the server records it (ZooKeeper, which does not: 1)
};

struct LockInspection {
  std::vector<LockHolder> holders;
  int64_t ttl_ms = -2;  // -2 not locked, -1 no expiry (a session's hold)
  std::optional<uint64_t> last_token;
};

}  // namespace dlock
