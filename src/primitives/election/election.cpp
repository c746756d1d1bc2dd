#include "primitives/election/election.hpp"

#include "common/error.hpp"
#include "primitives/lock/reentrant_lock.hpp"

namespace dlock {

void check_leader_value(const std::string& value, const char* argument) {
  if (value.size() > kLeaderValueMax) {
    throw InvalidArgument(std::string(argument) + ": " + std::to_string(value.size()) +
                          " bytes, longer than DLOCK_ELECTION_VALUE_MAX (" + std::to_string(kLeaderValueMax) +
                          ")");
  }
}

std::optional<uint64_t> Election::current_term(uint64_t owner, ReentrantLock& leadership) {
  const std::optional<Hold> hold = core_.holds().find(ops_->leadership()->hold_key(), owner);
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
  const std::string& name = ops_->name();
  const std::optional<Hold> hold = core_.holds().find(ops_->leadership()->hold_key(), owner);
  if (!hold) throw NotOwnerError("proclaim: this candidate does not lead '" + name + "'");
  if (hold->lost) throw_ended(*hold, "proclaim: the leadership of '" + name + "'", "was lost");
  // The watchdog will find the lease gone too, and tell the loss.
  if (!ops_->proclaim(*hold, value)) {
    throw LostError("proclaim: the leadership of '" + name + "' is no longer this candidate's");
  }
}

}  // namespace dlock
