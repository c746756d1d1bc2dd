// The count-down latch's Lua scripts (src/backends/redis/lua/latch/), compiled in by
// cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua::latch {

extern const char* const try_set_count;
extern const char* const count_down;

}  // namespace dlock::lua::latch
