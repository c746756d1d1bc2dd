// The benchmark's own connections to the server dlock is measured on (the
// reference loop, the round-trip probe, the server's counters): the tests'
// hiredis connection, opened where dlock's URL says, as dlock would.
#pragma once

#include <string>
#include <vector>

#include "backends/redis/net/url.hpp"
#include "redis_connection.hpp"
#include "redis_info.hpp"

namespace dlock_bench {

using dlock_test::InfoFields;
using dlock_test::RedisConnection;
using dlock_test::RedisReply;

// Connects (TCP, TLS or unix socket), then runs AUTH and SELECT as `server` says.
// Throws std::runtime_error when the server cannot be reached or refuses.
RedisConnection connect(const dlock::ClientConfig& server);

// One command; an error reply is thrown as std::runtime_error.
RedisReply checked(RedisConnection& connection, const std::vector<std::string>& argv);

InfoFields info(RedisConnection& connection, const std::string& section);

}  // namespace dlock_bench
