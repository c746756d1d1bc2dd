// What the core needs to know of a primitive's hold to keep it alive and to
// let it go, without knowing the primitive's keys or scripts: each primitive
// implements it over its own layout.
#pragma once

#include <string>

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/script.hpp"

namespace dlock {

class HeldResource {
 public:
  virtual ~HeldResource() = default;

  // The name the caller gave.
  virtual const std::string& name() const = 0;
  // Holds are keyed by (hold_key, owner): two resources of one name (the
  // sides of a read-write lock) give different keys.
  virtual const std::string& hold_key() const { return name(); }

  // The script that extends `field`'s hold, and its keys; the watchdog calls
  // it with ARGV = {lease_ms, field} and reads 1 (renewed) or 0 (gone).
  virtual Script& renewal_script() const = 0;
  virtual Argv renewal_keys() const = 0;

  // Lets `field`'s hold go; returns whether it was still held. One round trip
  // on `connection`, safe to retry under the same `request_id`.
  virtual bool release(Connection& connection, const std::string& field, const std::string& request_id,
                       int64_t retry_window_ms) const = 0;
};

}  // namespace dlock
