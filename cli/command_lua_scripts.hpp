// The command's Lua scripts, embedded from cli/lua/*.lua at build time.
#pragma once

namespace dlock::lua {

extern const char* const lock_status;
extern const char* const count_attempt;
extern const char* const keep_hold;

}  // namespace dlock::lua
