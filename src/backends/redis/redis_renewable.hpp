// What the Redis keeper (backends/redis/redis_keeper.hpp) needs of a held
// resource to renew its holds. Implemented by the primitives' resources,
// which speak Redis until the seam's step 5 (docs/design/backends.md, 1.5).
#pragma once

#include "backends/redis/net/connection.hpp"
#include "backends/redis/net/script.hpp"

namespace dlock {

class RedisRenewable {
 public:
  virtual ~RedisRenewable() = default;

  // The script that extends `field`'s hold, and its keys; called with
  // ARGV = {lease_ms, field}, it answers 1 (renewed) or 0 (gone).
  virtual Script& renewal_script() const = 0;
  virtual Argv renewal_keys() const = 0;
};

}  // namespace dlock
