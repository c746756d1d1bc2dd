// The leadership of an election as the core and the lock's acquire steps see
// it: a lock (its own keys, the lock's scripts for renewal, release and
// waiting) whose grant also records the leader and appends it to the stream
// of leaders (lua/election/announce.lua).
#pragma once

#include <string>

#include "backends/redis/election_ops/election_keys.hpp"
#include "backends/redis/lock_ops/lock_resource.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class ElectionResource final : public LockResource {
 public:
  ElectionResource(const std::string& name, const ClientConfig& config);

  // The value the candidate's next grant publishes.
  void set_value(std::string value) const;

  const ElectionKeys election_keys;

 protected:
  Reply run_acquire(Connection& connection, const Argv& keys, const Argv& args) const override;

 private:
  ElectionResource(ElectionKeys keys, const ClientConfig& config);
  mutable CandidateValue value_;
};

}  // namespace dlock
