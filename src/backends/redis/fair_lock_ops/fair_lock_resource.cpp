#include "backends/redis/fair_lock_ops/fair_lock_resource.hpp"

#include "backends/redis/fair_lock_ops/fair_lock_lua.hpp"
#include "backends/redis/net/composed_script.hpp"
#include "core/hold_checks_lua.hpp"
#include "core/tokens_lua.hpp"

namespace dlock {
namespace {

Script& acquire_script() {
  static ComposedScript script("fair_acquire", {lua::tokens, lua::hold_checks, wait_liveness_lua(),
                                                lua::fair_lock::queue, lua::fair_lock::acquire});
  return script.script();
}
Script& release_script() {
  static ComposedScript script("fair_release", {lua::tokens, lua::hold_checks, wait_liveness_lua(),
                                                lua::fair_lock::queue, lua::fair_lock::release});
  return script.script();
}
Script& leave_script() {
  static ComposedScript script("fair_leave",
                               {lua::tokens, wait_liveness_lua(), lua::fair_lock::queue, lua::fair_lock::leave});
  return script.script();
}

}  // namespace

Script& FairLockResource::heartbeat_script() const {
  static ComposedScript script("fair_heartbeat",
                               {lua::tokens, wait_liveness_lua(), lua::fair_lock::queue, lua::fair_lock::heartbeat});
  return script.script();
}

Lockable::Attempt FairLockResource::attempt(Connection& connection, const std::string& field,
                                            int64_t lease_ms, int64_t wait_left_ms,
                                            const std::string& request_id) const {
  Argv acquire_keys = queue_keys();
  const std::string grant = keys.owner_grant(field);  // Argv only points at them
  const std::string latch = keys.latch + ":" + field;
  acquire_keys.push_back(grant);
  acquire_keys.push_back(latch);
  const Reply reply = acquire_script().run(
      connection, acquire_keys,
      {std::to_string(lease_ms), field, fair_keys.wake_prefix, wait_left_ms == 0 ? "0" : "1", request_id});
  // acquire.lua: the token when the caller holds the lock, {-1} when queued.
  return parse_attempt(reply, "acquire fair lock '" + keys.name + "'");
}

bool FairLockResource::release(Connection& connection, const std::string& field,
                               const std::string& request_id, int64_t retry_window_ms) const {
  Argv release_keys = queue_keys();
  const std::string latch = keys.latch + ":" + field;
  release_keys.push_back(latch);
  release_keys.push_back(keys.channel);
  const std::string grant = keys.owner_grant(field);
  release_keys.push_back(grant);
  const std::string window = std::to_string(retry_window_ms);
  const Reply reply =
      release_script().run(connection, release_keys, {field, window, request_id, fair_keys.wake_prefix});
  return reply.integer_is_one("release fair lock '" + keys.name + "'");
}

void FairLockResource::leave(Connection& connection, const std::string& field) const {
  Argv leave_keys = queue_keys();
  leave_keys.push_back(keys.channel);
  leave_script()
      .run(connection, leave_keys, {field, fair_keys.wake_prefix})
      .throw_if_error("leave the queue of fair lock '" + keys.name + "'");
}

}  // namespace dlock
