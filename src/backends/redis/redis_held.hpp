// What the Redis backend needs of a held resource to renew and let go of its
// holds (the keeper, close, a freed handle's holds). Implemented by the
// resources in Redisson's layouts: the lock kinds' (Lockable) and the leased
// permits'.
#pragma once

#include <cstdint>
#include <string>

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/script.hpp"
#include "core/held_resource.hpp"
#include "core/holds.hpp"

namespace dlock {

class RedisHeld : public HeldResource {
 public:
  // The script that extends `field`'s hold, and its keys; called with
  // ARGV = {lease_ms, field}, it answers 1 (renewed) or 0 (gone).
  virtual Script& renewal_script() const = 0;
  virtual Argv renewal_keys() const = 0;

  // Lets `field`'s hold go; returns whether it was still held. One round trip
  // on `connection`, safe to retry under the same `request_id`.
  virtual bool release(Connection& connection, const std::string& field, const std::string& request_id,
                       int64_t retry_window_ms) const = 0;
};

// The Redis side of a hold: every resource that reaches a Redis client's
// holds is one of these.
inline const RedisHeld& redis_held(const Hold& hold) {
  return dynamic_cast<const RedisHeld&>(*hold.resource);
}

}  // namespace dlock
