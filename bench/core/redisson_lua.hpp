// Redisson's RLock scripts (redisson_try_lock.lua, redisson_unlock.lua in
// this directory), compiled in by cmake/DlockEmbed.cmake.
#pragma once

namespace dlock_bench::redisson {

extern const char* const redisson_try_lock;
extern const char* const redisson_unlock;

}  // namespace dlock_bench::redisson
