// An election's calls beside the campaign (which is the lock's acquire on its
// leadership): the candidate's own term, proclaim, and who leads, through the
// backend's ElectionOps.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/client_core.hpp"
#include "core/election_ops.hpp"

namespace dlock {

class ReentrantLock;

class Election {
 public:
  Election(ClientCore& core, std::shared_ptr<ElectionOps> ops) : core_(core), ops_(std::move(ops)) {}

  // The term of `owner` while it leads, with no round trip. A leadership
  // known lost is ended first (its release sent through `leadership`, the
  // lock of the election's resource), so the next campaign starts afresh:
  // nullopt then, as when it does not lead.
  std::optional<uint64_t> current_term(uint64_t owner, ReentrantLock& leadership);
  // Publishes `value` for the owner's term. Throws NotOwnerError when it
  // does not lead, LostError when its leadership was lost.
  void proclaim(uint64_t owner, const std::string& value);
  std::optional<Leader> leader() { return ops_->leader(); }

 private:
  ClientCore& core_;
  std::shared_ptr<ElectionOps> ops_;
};

// dlock.h's DLOCK_ELECTION_VALUE_MAX (c_api/election.cpp checks they agree).
constexpr std::size_t kLeaderValueMax = 1024;

// Throws InvalidArgument (naming `argument`) for a value longer than
// kLeaderValueMax bytes.
void check_leader_value(const std::string& value, const char* argument);

}  // namespace dlock
