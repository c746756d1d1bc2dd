// The Lua functions every lock kind's scripts share (src/backends/redis/lua/hold_checks.lua:
// the owner's release latch, the lease's bounds), compiled in by
// cmake/DlockEmbed.cmake and put before the acquire and release scripts of
// the lock, the fair lock and the read-write lock.
#pragma once

namespace dlock::lua {

extern const char* const hold_checks;

}  // namespace dlock::lua
