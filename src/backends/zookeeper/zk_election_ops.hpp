// An election on ZooKeeper (core/election_ops.hpp) in the layout of Curator's
// LeaderSelector, so a Curator service and a dlock service elect one leader
// between them: the leadership is an InterProcessMutex at the election's path
// whose nodes hold the candidate's value (LeaderSelector's participant id),
// the leader is the first node, the term its creation zxid. Proclaim sets the
// leader's node's data; followers watch the path and that node.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backends/zookeeper/zk_lock_layout.hpp"
#include "backends/zookeeper/zk_lock_ops.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class ZkElectionOps final : public ElectionOps {
 public:
  // Throws InvalidArgument for a name zk_paths refuses.
  ZkElectionOps(ZkLockOps::SessionOf session_of, std::string name);

  const std::string& name() const override { return name_; }
  std::shared_ptr<LockOps> leadership() const override { return leadership_; }
  void set_value(std::string value) override;
  // Sets the data of the hold's node; false when the node is gone.
  bool proclaim(const Hold& hold, const std::string& value) override;
  std::optional<Leader> leader() override;
  std::unique_ptr<LeaderFollower> follow(LeaderFn fn) override;

 private:
  const ZkLockOps::SessionOf session_of_;
  const std::string name_;
  const ZkLockLayout layout_;
  // What the candidate's next node is made with (ZkLockOps::NodeData).
  const std::shared_ptr<CandidateValue> value_ = std::make_shared<CandidateValue>();
  const std::shared_ptr<LockOps> leadership_;
};

}  // namespace dlock
