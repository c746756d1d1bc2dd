// What the core needs to know of a primitive's hold to let it go, without
// knowing the primitive's keys or scripts: each primitive implements it over
// its own layout. Keeping a hold alive is the backend keeper's business
// (core/hold_keeper.hpp; on Redis, backends/redis/redis_renewable.hpp).
#pragma once

#include <string>

#include "backends/redis/net/connection.hpp"

namespace dlock {

class HeldResource {
 public:
  virtual ~HeldResource() = default;

  // The name the caller gave.
  virtual const std::string& name() const = 0;
  // Holds are keyed by (hold_key, owner): two resources of one name (the
  // sides of a read-write lock) give different keys.
  virtual const std::string& hold_key() const { return name(); }

  // Lets `field`'s hold go; returns whether it was still held. One round trip
  // on `connection`, safe to retry under the same `request_id`.
  virtual bool release(Connection& connection, const std::string& field, const std::string& request_id,
                       int64_t retry_window_ms) const = 0;
};

}  // namespace dlock
