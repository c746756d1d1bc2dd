// Text the C ABI hands to its caller to free (dlock_lock_holder_note_free,
// dlock_schema_free: both std::free it).
#pragma once

#include <string>

namespace dlock::c_api {

// A malloc()ed NUL-terminated copy of `text`; throws std::bad_alloc.
char* c_string(const std::string& text);

}  // namespace dlock::c_api
