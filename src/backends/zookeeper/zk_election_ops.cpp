#include "backends/zookeeper/zk_election_ops.hpp"

#include <zookeeper/zookeeper.h>

#include "backends/zookeeper/zk_call.hpp"
#include "backends/zookeeper/zk_leader.hpp"
#include "backends/zookeeper/zk_leader_follower.hpp"

namespace dlock {

ZkElectionOps::ZkElectionOps(ZkLockOps::SessionOf session_of, std::string name)
    : session_of_(std::move(session_of)),
      name_(std::move(name)),
      layout_(ZkLockLayout::election(name_)),
      leadership_(std::make_shared<ZkLockOps>(session_of_, name_, layout_,
                                              [value = value_](const std::string&) { return value->get(); })) {}

void ZkElectionOps::set_value(std::string value) {
  value_->set(std::move(value));
}

bool ZkElectionOps::proclaim(const Hold& hold, const std::string& value) {
  const std::shared_ptr<zk::ZkSession> session = session_of_();
  const std::string& node = hold.grant.locator;
  auto answer = zk::send_set(*session, node, value);
  const zk::StatResult set = zk::await(*session, answer, "setData", node);
  if (set.rc == ZNONODE) return false;
  if (set.rc != ZOK) zk::raise_for(set.rc, "setData", node);
  return true;
}

std::optional<Leader> ZkElectionOps::leader() {
  return read_leader(*session_of_(), layout_);
}

std::unique_ptr<LeaderFollower> ZkElectionOps::follow(LeaderFn fn) {
  return std::make_unique<ZkLeaderFollower>(session_of_, layout_, name_, std::move(fn));
}

}  // namespace dlock
