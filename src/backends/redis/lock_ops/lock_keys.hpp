// The Redis names derived from a lock name, in Redisson's layout.
#pragma once

#include <string>

namespace dlock {

struct LockKeys {
  // Throws InvalidArgument unless `name` is 1..DLOCK_NAME_MAX bytes and, when
  // it contains '{', has a non-empty hash tag.
  explicit LockKeys(std::string name);

  std::string name;           // the lock hash itself
  std::string channel;        // redisson_lock__channel:{name}
  std::string counter;        // redisson_lock_token:{name}
  std::string latch;          // prefix of the owners' release latches
  std::string turn;           // dlock_turn:{name}: the waiting owner a release named, who goes first
  std::string waiting;        // dlock_waiting:{name}: owners waiting, by when they began (lua/lock/waiters.lua)
  std::string deadlines;      // dlock_waiting:{name}:until: the same owners, by when they count as gone
  std::string attempts;       // prefix of per-period attempt counters: dlock_attempts:{name}
  std::string attempt_latch;  // prefix of per-request attempt-count latches
  std::string grant;          // prefix of the owners' grant keys: dlock_grant:{name}

  // The release latch of the owner field `field` (release.lua, acquire.lua).
  std::string owner_latch(const std::string& field) const { return latch + ":" + field; }
  // The grant key of the owner field `field`: its last grant's request id and
  // token, so a retried acquire is told from a fresh one (lua/tokens.lua).
  std::string owner_grant(const std::string& field) const { return grant + ":" + field; }

  // Redisson's prefixName(): "<prefix>:{<name>}", or "<prefix>:<name>" when
  // the name already carries a hash tag.
  static std::string prefixed(const char* prefix, const std::string& name);
};

}  // namespace dlock
