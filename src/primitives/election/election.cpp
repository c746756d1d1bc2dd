#include "primitives/election/election.hpp"

#include "backends/redis/election_ops/election_lua.hpp"
#include "backends/redis/net/script.hpp"
#include "backends/redis/redis_session.hpp"
#include "common/error.hpp"
#include "primitives/lock/reentrant_lock.hpp"

namespace dlock {
namespace {

Script& leader_script() {
  static Script script("election_leader", lua::election::leader);
  return script;
}

Script& proclaim_script() {
  static Script script("election_proclaim", lua::election::proclaim);
  return script;
}

}  // namespace

void check_leader_value(const std::string& value, const char* argument) {
  if (value.size() > kLeaderValueMax) {
    throw InvalidArgument(std::string(argument) + ": " + std::to_string(value.size()) +
                          " bytes, longer than DLOCK_ELECTION_VALUE_MAX (" + std::to_string(kLeaderValueMax) +
                          ")");
  }
}

std::optional<uint64_t> Election::current_term(uint64_t owner, ReentrantLock& leadership) {
  const std::optional<Hold> hold = core_.holds().find(resource_->hold_key(), owner);
  if (!hold) return std::nullopt;
  if (!hold->lost) return hold->grant.token;
  try {
    leadership.release(owner);
  } catch (const LostError&) {
    // The loss was told through the lost callback already.
  }
  return std::nullopt;
}

void Election::proclaim(uint64_t owner, const std::string& value) {
  const std::string& name = resource_->election_keys.name;
  const std::optional<Hold> hold = core_.holds().find(resource_->hold_key(), owner);
  if (!hold) throw NotOwnerError("proclaim: this candidate does not lead '" + name + "'");
  if (hold->lost) throw_ended(*hold, "proclaim: the leadership of '" + name + "'", "was lost");
  const ElectionKeys& keys = resource_->election_keys;
  const std::string term = std::to_string(hold->grant.token);
  const bool published = redis_session(core_).execute(keys.lock, [&](Connection& connection) {
    return proclaim_script()
        .run(connection, {keys.lock, keys.leader, keys.leaders}, {hold->grant.owner_field, term, value})
        .integer_is_one("proclaim '" + name + "'");
  });
  // The watchdog will find the lease gone too, and tell the loss.
  if (!published) throw LostError("proclaim: the leadership of '" + name + "' is no longer this candidate's");
}

LeaderSnapshot Election::snapshot() {
  const ElectionKeys& keys = resource_->election_keys;
  return redis_session(core_).execute(keys.lock, [&](Connection& connection) {
    const Reply reply = leader_script().run(connection, {keys.lock, keys.leader, keys.leaders}, {});
    const std::string what = "leader of '" + keys.name + "'";
    reply.throw_if_error(what);
    const ReplyView& view = reply;
    const std::size_t size = view.array_size(what);
    LeaderSnapshot snapshot;
    snapshot.last_id = std::string(view.element(0).text(what));
    if (size >= 4) {
      Leader leader;
      leader.value = std::string(view.element(1).text(what));
      leader.term = view.element(2).decimal<uint64_t>(what);
      leader.since_ms = view.element(3).decimal<int64_t>(what);
      snapshot.leader = std::move(leader);
    }
    return snapshot;
  });
}

}  // namespace dlock
