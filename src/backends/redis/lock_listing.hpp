// The names of the hashes under a prefix (the candidates for locks), for
// `dlock list`: SCAN with MATCH and TYPE, so the server is never blocked.
#pragma once

#include <string>
#include <vector>

#include "core/client_core.hpp"

namespace dlock {

// Each name once, in SCAN's order; glob characters of `prefix` match literally.
std::vector<std::string> list_lock_names(ClientCore& core, const std::string& prefix);

}  // namespace dlock
