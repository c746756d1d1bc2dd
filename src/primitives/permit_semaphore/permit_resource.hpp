// A leased-permit semaphore as the core holds its permits: each permit is a
// hold whose field is the permit's raw id, renewed by the watchdog through
// renew.lua (it moves the id's score in the timeout ZSET) and released
// through release.lua.
#pragma once

#include <string>

#include "backends/redis/redis_held.hpp"
#include "primitives/permit_semaphore/permit_keys.hpp"

namespace dlock {

struct PermitScripts {
  static Script& acquire();
  static Script& withdraw();
  static Script& renew();
  static Script& release();
  static Script& available();
  static Script& try_set_permits();
};

class PermitResource final : public RedisHeld {
 public:
  explicit PermitResource(std::string name) : keys(std::move(name)) {}

  const std::string& name() const override { return keys.name; }
  Script& renewal_script() const override { return PermitScripts::renew(); }
  Argv renewal_keys() const override { return {keys.timeouts}; }
  // release.lua: returns the permit `field` (a raw id) to the pool when its
  // lease has not ended; keeps `request_id` under the permit's latch so a
  // retry answers the same.
  bool release(Connection& connection, const std::string& field, const std::string& request_id,
               int64_t retry_window_ms) const override;

  const PermitKeys keys;
};

}  // namespace dlock
