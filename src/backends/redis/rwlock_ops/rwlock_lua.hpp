// The read-write lock's Lua scripts (src/backends/redis/lua/rwlock/), compiled in by
// cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua::rwlock {

extern const char* const read_acquire;
extern const char* const write_acquire;
extern const char* const read_release;
extern const char* const write_release;
extern const char* const read_renew;
extern const char* const write_renew;
extern const char* const force_release;
extern const char* const is_locked;
extern const char* const withdraw_intent;
extern const char* const intent_heartbeat;

}  // namespace dlock::lua::rwlock
