// The election's Lua scripts (src/backends/redis/lua/election/), compiled in by
// cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua::election {

extern const char* const announce;
extern const char* const leader;
extern const char* const proclaim;

}  // namespace dlock::lua::election
