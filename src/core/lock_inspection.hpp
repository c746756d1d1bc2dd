// A snapshot of one lock, for tools that show its state (dlock_lock_inspect,
// `dlock status`): who holds it, its remaining lease and its last fencing
// token. Each backend fills it its own way (LockOps::inspect).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlock {

struct LockHolder {
  std::string field;   // <client-id>:<owner> (Redis: a kept hold's <client-id>:<owner>:kept)
  int64_t hold_count;  // as the server records it (ZooKeeper, which does not: 1)
};

// What `dlock status` shows beside a holder's id (its host, pid): the last
// note a holder recorded, with the field of the hold that wrote it, so a
// reader pairs it with the holder it belongs to.
struct HolderNote {
  std::string holder;
  std::string note;

  // As a backend stores it: "<holder>\n<note>".
  std::string stored() const { return holder + "\n" + note; }
  // stored()'s inverse; nullopt for text that is not one.
  static std::optional<HolderNote> from_stored(std::string_view text) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return std::nullopt;
    return HolderNote{std::string(text.substr(0, newline)), std::string(text.substr(newline + 1))};
  }
};

struct LockInspection {
  std::vector<LockHolder> holders;
  int64_t ttl_ms = -2;  // -2 not locked, -1 no expiry (a session's hold)
  std::optional<uint64_t> last_token;
};

}  // namespace dlock
