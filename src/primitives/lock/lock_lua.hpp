// The reentrant lock's Lua scripts (src/lua/lock/), compiled in by
// cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua::lock {

extern const char* const acquire;
extern const char* const release;
extern const char* const renew;
extern const char* const force_release;

}  // namespace dlock::lua::lock
