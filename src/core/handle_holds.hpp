// What freeing a primitive's handle does to the holds taken through it.
#pragma once

#include "core/client_core.hpp"

namespace dlock {

// Releases, best effort, the holds taken through `handle` (it is being
// freed): each through its own resource, once; a lost hold is left alone.
void release_holds_taken_through(ClientCore& core, const void* handle);

}  // namespace dlock
