// The leased-permit semaphore's Lua scripts (src/backends/redis/lua/permit_semaphore/),
// compiled in by cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua::permit_semaphore {

extern const char* const acquire;
extern const char* const withdraw;
extern const char* const renew;
extern const char* const release;
extern const char* const available;
extern const char* const try_set_permits;  // lua/semaphore/try_set_permits.lua

}  // namespace dlock::lua::permit_semaphore
