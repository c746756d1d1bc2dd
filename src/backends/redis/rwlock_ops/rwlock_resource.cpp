#include "backends/redis/rwlock_ops/rwlock_resource.hpp"

#include <algorithm>
#include <string>

#include "backends/redis/net/composed_script.hpp"
#include "backends/redis/rwlock_ops/rwlock_lua.hpp"
#include "core/hold_checks_lua.hpp"
#include "core/tokens_lua.hpp"

namespace dlock {
namespace {

// Redisson's write lock owner: the read owner's field plus this.
constexpr const char* write_suffix = ":write";

}  // namespace

Script& RwLockScripts::read_acquire() {
  static ComposedScript script("rwlock_read_acquire",
                               {lua::tokens, lua::hold_checks, lua::rwlock::read_acquire});
  return script.script();
}
Script& RwLockScripts::write_acquire() {
  static ComposedScript script("rwlock_write_acquire",
                               {lua::tokens, lua::hold_checks, lua::rwlock::write_acquire});
  return script.script();
}
Script& RwLockScripts::read_release() {
  static ComposedScript script("rwlock_read_release", {lua::hold_checks, lua::rwlock::read_release});
  return script.script();
}
Script& RwLockScripts::write_release() {
  static ComposedScript script("rwlock_write_release", {lua::hold_checks, lua::rwlock::write_release});
  return script.script();
}
Script& RwLockScripts::read_renew() {
  static Script script("rwlock_read_renew", lua::rwlock::read_renew);
  return script;
}
Script& RwLockScripts::write_renew() {
  static Script script("rwlock_write_renew", lua::rwlock::write_renew);
  return script;
}
Script& RwLockScripts::force_release() {
  static Script script("rwlock_force_release", lua::rwlock::force_release);
  return script;
}
Script& RwLockScripts::withdraw_intent() {
  static Script script("rwlock_withdraw_intent", lua::rwlock::withdraw_intent);
  return script;
}
Script& RwLockScripts::intent_heartbeat() {
  static Script script("rwlock_intent_heartbeat", lua::rwlock::intent_heartbeat);
  return script;
}
Script& RwLockScripts::is_locked() {
  static Script script("rwlock_is_locked", lua::rwlock::is_locked);
  return script;
}

RwLockSide::RwLockSide(std::string name, const char* mode)
    : keys_(std::move(name)), mode_(mode), hold_key_(keys_.name + '\0' + mode) {}

bool RwLockSide::force_release(Connection& connection) const {
  return RwLockScripts::force_release()
      .run(connection, {keys_.name, keys_.channel}, {mode_})
      .integer_is_one("force release the " + std::string(mode_) + " side of '" + keys_.name + "'");
}

bool RwLockSide::is_locked(Connection& connection) const {
  return RwLockScripts::is_locked()
      .run(connection, {keys_.name}, {mode_})
      .integer_is_one("is the " + std::string(mode_) + " side of '" + keys_.name + "' locked");
}

int64_t RwLockSide::ttl_ms(Connection& connection) const {
  return connection.command({"PTTL", keys_.name}).integer("PTTL " + keys_.name);
}

Lockable::Attempt RwLockSide::parse_attempt(const Reply& reply) const {
  return Lockable::parse_attempt(reply, std::string(mode_) + " acquire '" + keys_.name + "'");
}

bool RwLockSide::released(const Reply& reply) const {
  return reply.integer_is_one(std::string(mode_) + " release '" + keys_.name + "'");
}

Lockable::Attempt ReadSide::attempt(Connection& connection, const std::string& field, int64_t lease_ms,
                                    int64_t, const std::string& request_id) const {
  const Reply reply = RwLockScripts::read_acquire().run(
      connection, {keys_.name, keys_.timeout_prefix(field), keys_.counter, keys_.intent, keys_.owner_grant(field)},
      {std::to_string(lease_ms), field, field + write_suffix, request_id});
  return parse_attempt(reply);
}

bool ReadSide::release(Connection& connection, const std::string& field, const std::string& request_id,
                       int64_t retry_window_ms) const {
  const Reply reply = RwLockScripts::read_release().run(
      connection,
      {keys_.name, keys_.channel, keys_.latch + ":" + field, keys_.timeout_prefix(field), keys_.tagged,
       keys_.owner_grant(field)},
      {field, std::to_string(retry_window_ms), request_id});
  return released(reply);
}

Lockable::Attempt WriteSide::attempt(Connection& connection, const std::string& field, int64_t lease_ms,
                                     int64_t wait_left_ms, const std::string& request_id) const {
  // 0: this attempt leaves no intent (a single attempt, or readers preferred).
  // Never longer than the writer's wait: the heartbeat renews it only while
  // the writer waits, and the end of its wait withdraws it.
  int64_t intent_ms = 0;
  if (prefers_writers() && wait_left_ms != 0) {
    const int64_t liveness_ms = wait_liveness.count();
    intent_ms = wait_left_ms < 0 ? liveness_ms : std::min(wait_left_ms, liveness_ms);
  }
  const Reply reply = RwLockScripts::write_acquire().run(
      connection, {keys_.name, keys_.counter, keys_.intent, keys_.owner_grant(field)},
      {std::to_string(lease_ms), field, std::to_string(intent_ms), request_id});
  return parse_attempt(reply);
}

std::string WriteSide::hold_field(const std::string& client_field) const {
  return client_field + write_suffix;
}

void WriteSide::leave(Connection& connection, const std::string& field) const {
  RwLockScripts::withdraw_intent().run(connection, {keys_.intent, keys_.channel}, {field});
}

bool WriteSide::release(Connection& connection, const std::string& field, const std::string& request_id,
                        int64_t retry_window_ms) const {
  const Reply reply =
      RwLockScripts::write_release().run(
          connection, {keys_.name, keys_.channel, keys_.latch + ":" + field, keys_.owner_grant(field)},
          {field, std::to_string(retry_window_ms), request_id});
  return released(reply);
}

}  // namespace dlock
