#include "primitives/lock/lock_resource.hpp"

#include "primitives/lock/lock_lua.hpp"

namespace dlock {

Script& LockScripts::acquire() {
  static Script script("acquire", lua::lock::acquire);
  return script;
}
Script& LockScripts::release() {
  static Script script("release", lua::lock::release);
  return script;
}
Script& LockScripts::renew() {
  static Script script("renew", lua::lock::renew);
  return script;
}
Script& LockScripts::force_release() {
  static Script script("force_release", lua::lock::force_release);
  return script;
}
Script& LockScripts::keep() {
  static Script script("keep", lua::lock::keep);
  return script;
}
Script& LockScripts::inspect() {
  static Script script("inspect", lua::lock::inspect);
  return script;
}
Script& LockScripts::count_attempt() {
  static Script script("count_attempt", lua::lock::count_attempt);
  return script;
}

bool LockResource::release(Connection& connection, const std::string& field, const std::string& request_id,
                           int64_t retry_window_ms) const {
  const std::string window = std::to_string(retry_window_ms);
  const Reply reply = LockScripts::release().run(
      connection, {keys.name, keys.channel, keys.owner_latch(field), keys.turn, keys.waiting},
      {field, window, request_id, yield_ms});
  return reply.integer_is_one("release '" + keys.name + "'");
}

}  // namespace dlock
