// The semaphore's Lua scripts (src/backends/redis/lua/semaphore/), compiled in by
// cmake/DlockEmbed.cmake; acquire, release and withdraw run after
// src/backends/redis/lua/requests.lua.
#pragma once

namespace dlock::lua::semaphore {

extern const char* const acquire;
extern const char* const release;
extern const char* const withdraw;
extern const char* const try_set_permits;

}  // namespace dlock::lua::semaphore
