// The fair lock's Lua scripts (src/backends/redis/lua/fair_lock/), compiled in by
// cmake/DlockEmbed.cmake. `queue` is the part they share, prepended to each.
#pragma once

namespace dlock::lua::fair_lock {

extern const char* const queue;
extern const char* const acquire;
extern const char* const release;
extern const char* const heartbeat;
extern const char* const leave;

}  // namespace dlock::lua::fair_lock
