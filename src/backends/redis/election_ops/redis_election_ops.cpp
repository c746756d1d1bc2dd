#include "backends/redis/election_ops/redis_election_ops.hpp"

#include "backends/redis/election_ops/election_lua.hpp"
#include "backends/redis/election_ops/leader_stream.hpp"
#include "backends/redis/net/script.hpp"
#include "backends/redis/redis_lock_ops.hpp"
#include "backends/redis/redis_session.hpp"

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

LeaderSnapshot read_leader(ClientCore& core, const ElectionKeys& keys) {
  return redis_session(core).execute(keys.lock, [&](Connection& connection) {
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

RedisElectionOps::RedisElectionOps(std::shared_ptr<Client> client, const std::string& name)
    : client_(std::move(client)),
      resource_(std::make_shared<const ElectionResource>(name, client_->core()->config())),
      leadership_(std::make_shared<RedisLockOps>(client_, resource_)) {}

bool RedisElectionOps::proclaim(const Hold& hold, const std::string& value) {
  const ElectionKeys& keys = resource_->election_keys;
  const std::string term = std::to_string(hold.grant.token);
  return redis_session(*client_->core()).execute(keys.lock, [&](Connection& connection) {
    return proclaim_script()
        .run(connection, {keys.lock, keys.leader, keys.leaders}, {hold.grant.owner_field, term, value})
        .integer_is_one("proclaim '" + keys.name + "'");
  });
}

std::optional<Leader> RedisElectionOps::leader() {
  return read_leader(*client_->core(), resource_->election_keys).leader;
}

std::unique_ptr<LeaderFollower> RedisElectionOps::follow(LeaderFn fn) {
  return std::make_unique<LeaderStream>(client_, resource_, std::move(fn));
}

}  // namespace dlock
