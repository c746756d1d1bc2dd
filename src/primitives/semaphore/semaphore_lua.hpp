// The semaphore's Lua scripts (src/lua/semaphore/), compiled in by
// cmake/DlockEmbed.cmake; acquire, release and withdraw run after
// src/lua/requests.lua.
#pragma once

namespace dlock::lua::semaphore {

extern const char* const acquire;
extern const char* const release;
extern const char* const withdraw;
extern const char* const try_set_permits;

}  // namespace dlock::lua::semaphore
