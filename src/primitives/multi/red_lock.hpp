// RedLock: one lock over N >= 3 independent servers, held when a majority of
// its members are. An attempt sends every member its try at once (each
// bounded by a short patience, member_calls.hpp) and measures the elapsed
// time from before the first request left: validity = lease - elapsed -
// drift (drift = lease/100 + 2 ms, the clocks' possible disagreement). A
// majority with validity > 0 is a grant; anything else releases every member,
// including those whose answer was lost. The caller then waits for a release
// message from any member that refused (or that member's holder's lease to
// run out) and retries after a short random delay, so two contenders that
// split the vote do not collide again.
//
// No fencing token: the members' tokens come from independent counters, so
// no number derived from them is ordered across grants (Kleppmann, "How to do
// distributed locking", 2016). Use a single master's lock for fencing.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/wait_process.hpp"
#include "primitives/multi/member_calls.hpp"
#include "primitives/multi/member_group.hpp"
#include "primitives/multi/multi_lock.hpp"

namespace dlock {

class RedLock {
 public:
  using Clock = std::chrono::steady_clock;

  // Throws InvalidArgument: fewer than 3 members, a member given twice, two
  // members on one server.
  explicit RedLock(std::vector<std::shared_ptr<LockMember>> members);

  // The grant's validity in ms (> 0), or nullopt when the wait ran out.
  // Throws ConnectionError when fewer than a majority could be reached at the
  // end of the wait, InterruptedError, ClosedError, LostError (re-entering a
  // lost hold).
  std::optional<int64_t> acquire(const GroupRequest& request);
  // The same acquire as a wait for a driver to run (core/wait_process.hpp);
  // after a grant, validity_ms() tells the validity.
  std::shared_ptr<WaitProcess> acquire_wait(const GroupRequest& request);
  // Throws NotOwnerError, LostError (fewer than a majority still held).
  void release(uint64_t owner);
  // The remaining validity of the owner's hold in ms, 0 when lost or not held.
  int64_t validity_ms(uint64_t owner);
  MemberGroup& group() { return group_; }

 private:
  friend class RedLockAcquire;
  struct Round {
    std::vector<bool> granted;
    std::vector<bool> busy;  // held by another owner
    int64_t shortest_holder_ttl_ms = -1;
    size_t reachable = 0;                // answered without an error
    std::exception_ptr error;            // the first error, for a failure nobody could answer
    std::optional<int64_t> validity_ms;  // set for a grant
    Clock::time_point deadline;          // the grant's own end (lease - elapsed - drift)
  };
  Round attempt(const GroupRequest& request);
  // Lets go of the members a failed round took, and of those whose answer was lost.
  void undo(uint64_t owner, const std::vector<MemberAnswer>& answers);
  // What a wait that ran out returns: false, or the error when fewer than a
  // majority could answer.
  bool ran_out(const Round& last) const;

  MemberGroup group_;
  MemberCalls calls_{group_.members().size()};
};

}  // namespace dlock
