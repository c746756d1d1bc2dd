#include "backends/redis/lock_ops/lock_resource.hpp"

#include "backends/redis/lock_ops/lock_lua.hpp"
#include "backends/redis/net/composed_script.hpp"
#include "core/hold_checks_lua.hpp"
#include "core/tokens_lua.hpp"

namespace dlock {

const std::vector<const char*>& LockScripts::acquire_prelude() {
  static const std::vector<const char*> parts{lua::tokens, lua::hold_checks, wait_liveness_lua(), lua::lock::waiters};
  return parts;
}
const std::vector<const char*>& LockScripts::release_prelude() {
  static const std::vector<const char*> parts{lua::hold_checks, wait_liveness_lua(), lua::lock::waiters};
  return parts;
}
Script& LockScripts::acquire() {
  static ComposedScript script("acquire", acquire_prelude(), {lua::lock::acquire});
  return script.script();
}
Script& LockScripts::release() {
  static ComposedScript script("release", release_prelude(), {lua::lock::release});
  return script.script();
}
Script& LockScripts::wait_leave() {
  static ComposedScript script("wait_leave", {wait_liveness_lua(), lua::lock::waiters, lua::lock::wait_leave});
  return script.script();
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

Script& LockResource::heartbeat_script() const {
  static ComposedScript script("wait_beat", {wait_liveness_lua(), lua::lock::waiters, lua::lock::wait_beat});
  return script.script();
}

void LockResource::leave(Connection& connection, const std::string& field) const {
  LockScripts::wait_leave()
      .run(connection, {keys.name, keys.waiting, keys.deadlines, keys.turn, keys.channel}, {field, yield_ms})
      .throw_if_error("leave the waiting owners of lock '" + keys.name + "'");
}

bool LockResource::release(Connection& connection, const std::string& field, const std::string& request_id,
                           int64_t retry_window_ms) const {
  const std::string window = std::to_string(retry_window_ms);
  const Reply reply = LockScripts::release().run(
      connection,
      {keys.name, keys.channel, keys.owner_latch(field), keys.turn, keys.waiting, keys.owner_grant(field),
       keys.deadlines},
      {field, window, request_id, yield_ms});
  return reply.integer_is_one("release '" + keys.name + "'");
}

Lockable::Attempt LockResource::attempt(Connection& connection, const std::string& field, int64_t lease_ms,
                                        int64_t wait_left_ms, const std::string& request_id) const {
  // A single attempt barges; without turns nobody needs to know who waits.
  const char* will_wait = wait_left_ms == 0 || yield_ms == "0" ? "0" : "1";
  const Reply reply = run_acquire(
      connection,
      {keys.name, keys.counter, keys.owner_latch(field), keys.turn, keys.waiting, keys.owner_grant(field),
       keys.deadlines},
      {std::to_string(lease_ms), field, request_id, will_wait});
  // acquire.lua: the token when granted, {the holder's PTTL[, the turn's number]} when not.
  return parse_attempt(reply, "acquire '" + keys.name + "'");
}

Reply LockResource::run_acquire(Connection& connection, const Argv& keys, const Argv& args) const {
  return LockScripts::acquire().run(connection, keys, args);
}

bool LockResource::force_release(Connection& connection) const {
  const Reply reply = LockScripts::force_release().run(connection, {keys.name, keys.channel}, {});
  return reply.integer_is_one("force release '" + keys.name + "'");
}

bool LockResource::keep(Connection& connection, const std::string& field, int64_t keep_ms) const {
  return LockScripts::keep()
      .run(connection, {keys.name, keys.channel}, {field, std::to_string(keep_ms)})
      .integer_is_one("keep '" + keys.name + "'");
}

bool LockResource::is_locked(Connection& connection) const {
  return connection.command({"EXISTS", keys.name}).integer_is_one("EXISTS " + keys.name);
}

int64_t LockResource::ttl_ms(Connection& connection) const {
  return connection.command({"PTTL", keys.name}).integer("PTTL " + keys.name);
}

}  // namespace dlock
