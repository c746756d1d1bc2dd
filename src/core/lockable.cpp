#include "core/lockable.hpp"

#include "common/error.hpp"

namespace dlock {

Lockable::Attempt Lockable::parse_attempt(const Reply& reply, const std::string& what) {
  if (!reply.is_array()) return {true, reply.integer(what)};
  if (reply.array_size(what) != 1)
    throw ProtocolError(what + ": expected 1 element, got " + reply.describe());
  return {false, reply.element(0).integer(what)};
}

}  // namespace dlock
