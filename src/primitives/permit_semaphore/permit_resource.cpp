#include "primitives/permit_semaphore/permit_resource.hpp"

#include "backends/redis/net/composed_script.hpp"
#include "core/requests_lua.hpp"
#include "primitives/permit_semaphore/permit_semaphore_lua.hpp"

namespace dlock {

Script& PermitScripts::acquire() {
  static ComposedScript script("permit acquire", {lua::requests, lua::permit_semaphore::acquire});
  return script.script();
}
Script& PermitScripts::withdraw() {
  static ComposedScript script("permit withdraw", {lua::requests, lua::permit_semaphore::withdraw});
  return script.script();
}
Script& PermitScripts::renew() {
  static Script script("permit renew", lua::permit_semaphore::renew);
  return script;
}
Script& PermitScripts::release() {
  static Script script("permit release", lua::permit_semaphore::release);
  return script;
}
Script& PermitScripts::available() {
  static Script script("permit available", lua::permit_semaphore::available);
  return script;
}
Script& PermitScripts::try_set_permits() {
  static Script script("permit try_set_permits", lua::permit_semaphore::try_set_permits);
  return script;
}

bool PermitResource::release(Connection& connection, const std::string& field, const std::string& request_id,
                             int64_t retry_window_ms) const {
  const std::string latch = keys.latch + ":" + field;
  const std::string window = std::to_string(retry_window_ms);
  const Reply reply = PermitScripts::release().run(
      connection, {keys.name, keys.channel, keys.timeouts, latch}, {field, request_id, window});
  return reply.integer_is_one("release a permit of '" + keys.name + "'");
}

}  // namespace dlock
