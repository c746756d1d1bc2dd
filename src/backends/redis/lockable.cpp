#include "backends/redis/lockable.hpp"

#include "common/error.hpp"

namespace dlock {

Lockable::Attempt Lockable::parse_attempt(const Reply& reply, const std::string& what) {
  if (!reply.is_array()) return {true, reply.integer(what)};
  const std::size_t size = reply.array_size(what);
  if (size != 1 && size != 2)
    throw ProtocolError(what + ": expected 1 or 2 elements, got " + reply.describe());
  const int64_t turn_number = size == 2 ? reply.element(1).integer(what) : 0;
  return {false, reply.element(0).integer(what), static_cast<uint64_t>(turn_number)};
}

}  // namespace dlock
