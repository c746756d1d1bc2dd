// The reentrant lock's Lua scripts (src/backends/redis/lua/lock/), compiled in by
// cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua::lock {

extern const char* const acquire;
extern const char* const release;
extern const char* const renew;
extern const char* const force_release;
extern const char* const keep;
extern const char* const inspect;
extern const char* const count_attempt;
extern const char* const note_holder;
extern const char* const waiters;
extern const char* const wait_beat;
extern const char* const wait_leave;

}  // namespace dlock::lua::lock
