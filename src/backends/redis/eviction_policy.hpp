// At client open: a server that may evict keys under memory pressure may
// evict lock keys, which silently frees the lock. Warned about (SPEC 9, 11).
#pragma once

namespace dlock {

class RedisSession;

// Reads maxmemory-policy (CONFIG GET, or INFO memory when CONFIG is denied)
// and logs a warning unless it is noeviction. Never throws: a policy that
// cannot be read is logged at debug level.
void warn_about_eviction_policy(RedisSession& session) noexcept;

}  // namespace dlock
