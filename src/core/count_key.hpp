// Reads a key that holds a count as a string (a semaphore's permits, a
// latch's count), as Redisson's objects store them.
#pragma once

#include <cstdint>
#include <string>

#include "backends/redis/net/connection.hpp"

namespace dlock {

// GET `key`: 0 when it does not exist. Throws ProtocolError when it holds
// something other than an integer, or another type (WRONGTYPE).
int64_t read_count(Connection& connection, const std::string& key);

}  // namespace dlock
