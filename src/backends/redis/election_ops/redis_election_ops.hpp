// An election on Redis (core/election_ops.hpp): the leadership is a lock of
// its own keys (ElectionResource) whose grant records the leader and appends
// it to the stream of leaders; proclaim and the leader's read are scripts on
// the same keys, and followers read the stream (leader_stream.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "backends/redis/election_ops/election_resource.hpp"
#include "core/client.hpp"
#include "core/election_ops.hpp"

namespace dlock {

// Who leads, and where the stream of leaders stood when that was read.
struct LeaderSnapshot {
  std::string last_id;  // the stream's last entry id, "0-0" when empty
  std::optional<Leader> leader;
};

// Reads the leader and the stream's last id in one script.
LeaderSnapshot read_leader(ClientCore& core, const ElectionKeys& keys);

class RedisElectionOps final : public ElectionOps {
 public:
  // Throws InvalidArgument for a name ElectionKeys refuses.
  RedisElectionOps(std::shared_ptr<Client> client, const std::string& name);

  const std::string& name() const override { return resource_->election_keys.name; }
  std::shared_ptr<LockOps> leadership() const override { return leadership_; }
  void set_value(std::string value) override { resource_->set_value(std::move(value)); }
  bool proclaim(const Hold& hold, const std::string& value) override;
  std::optional<Leader> leader() override;
  std::unique_ptr<LeaderFollower> follow(LeaderFn fn) override;

 private:
  const std::shared_ptr<Client> client_;
  const std::shared_ptr<const ElectionResource> resource_;
  const std::shared_ptr<LockOps> leadership_;
};

}  // namespace dlock
