// The Lua scripts of src/lua/, compiled in by cmake/DlockEmbed.cmake.
#pragma once

namespace dlock::lua {

extern const char* const acquire;
extern const char* const release;
extern const char* const renew;
extern const char* const force_release;

}  // namespace dlock::lua
