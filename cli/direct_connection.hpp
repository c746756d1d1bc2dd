// The command's own connection to Redis, for the little the C ABI does not
// expose: a lock's holders and counters (dlock status) and the per-period
// attempts counter and hold (dlock run --hold-after-success/--max-attempts).
// It is the library's own connection (src/connection.hpp), set up by the
// library's URL grammar, so it reaches the server, database and credentials
// dlock_client_open() does. Its failures are dlock::Error, which main() reports.
#pragma once

#include <string>

#include "connection.hpp"

namespace dlock_cli {

// The settings `url` names (it has already been accepted by dlock_client_open()).
dlock::ClientConfig direct_connection_config(const std::string& url);

}  // namespace dlock_cli
