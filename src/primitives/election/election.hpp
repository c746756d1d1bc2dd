// An election's calls beside the campaign (which is the lock's acquire on an
// ElectionResource): the candidate's own term, proclaim, and who leads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "backends/redis/election_ops/election_resource.hpp"
#include "core/client_core.hpp"

namespace dlock {

struct Leader {
  uint64_t term = 0;
  int64_t since_ms = 0;  // Unix time, by the server's clock
  std::string value;
};

// Who leads, and where the stream of leaders stood when that was read.
struct LeaderSnapshot {
  std::string last_id;  // the stream's last entry id, "0-0" when empty
  std::optional<Leader> leader;
};

class ReentrantLock;

class Election {
 public:
  Election(ClientCore& core, std::shared_ptr<const ElectionResource> resource)
      : core_(core), resource_(std::move(resource)) {}

  // The term of `owner` while it leads, with no round trip. A leadership
  // known lost is ended first (its release sent through `leadership`, the
  // lock of the election's resource), so the next campaign starts afresh:
  // nullopt then, as when it does not lead.
  std::optional<uint64_t> current_term(uint64_t owner, ReentrantLock& leadership);
  // Publishes `value` for the owner's term. Throws NotOwnerError when it
  // does not lead, LostError when its leadership was lost.
  void proclaim(uint64_t owner, const std::string& value);
  LeaderSnapshot snapshot();

 private:
  ClientCore& core_;
  std::shared_ptr<const ElectionResource> resource_;
};

// dlock.h's DLOCK_ELECTION_VALUE_MAX (c_api/election.cpp checks they agree).
constexpr std::size_t kLeaderValueMax = 1024;

// Throws InvalidArgument (naming `argument`) for a value longer than
// kLeaderValueMax bytes.
void check_leader_value(const std::string& value, const char* argument);

}  // namespace dlock
