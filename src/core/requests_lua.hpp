// The Lua functions of request records (src/backends/redis/lua/requests.lua), compiled in by
// cmake/DlockEmbed.cmake and put before every script that applies a caller's
// request exactly once (core/pending_requests.hpp).
#pragma once

namespace dlock::lua {

extern const char* const requests;

}  // namespace dlock::lua
