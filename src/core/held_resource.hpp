// What the core knows of a hold's resource: the name it was taken on and what
// the client's holds are keyed by. Renewing and letting go of a hold are the
// backend's business (core/backend_session.hpp), over what its own resources
// add (on Redis, backends/redis/redis_held.hpp).
#pragma once

#include <string>

namespace dlock {

class HeldResource {
 public:
  virtual ~HeldResource() = default;

  // The name the caller gave.
  virtual const std::string& name() const = 0;
  // Holds are keyed by (hold_key, owner): two resources of one name (the
  // sides of a read-write lock) give different keys.
  virtual const std::string& hold_key() const { return name(); }
};

}  // namespace dlock
