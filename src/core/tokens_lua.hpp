// The Lua functions of fencing tokens and grant records (src/backends/redis/lua/tokens.lua),
// compiled in by cmake/DlockEmbed.cmake and put before the acquire scripts of
// every primitive that grants tokens.
#pragma once

namespace dlock::lua {

extern const char* const tokens;

}  // namespace dlock::lua
