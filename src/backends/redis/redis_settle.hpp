// A pending request's settle (core/pending_requests.hpp) on Redis: one
// script call, bound to a connection to the node of the request's name.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "backends/redis/net/connection.hpp"
#include "core/client_core.hpp"
#include "core/pending_requests.hpp"

namespace dlock {

// `call` as `core`'s pending request on `name`: once before a deadline on a
// connection from the router (the watchdog, close), or with execute()'s
// retries (the caller's next call). The core outlives its pending requests.
Settle redis_settle(ClientCore& core, std::string name, std::function<int64_t(Connection&)> call);

}  // namespace dlock
