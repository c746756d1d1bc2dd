// MultiLock (Redisson's RedissonMultiLock): every member or none. An attempt
// tries the members in canonical order (member_group.hpp); the first that
// refuses makes it let go of those it took, so a failed attempt leaves no
// member held, and the caller then waits for that member's release message
// (or its holder's lease to run out) before trying again.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cancel.hpp"
#include "core/wait_process.hpp"
#include "primitives/multi/member_group.hpp"

namespace dlock {

struct GroupRequest {
  uint64_t owner = 0;
  int64_t wait_ms = 0;    // 0 one attempt, -1 forever
  int64_t lease_ms = -1;  // -1 each member's watchdog
  Cancel* cancel = nullptr;
};

class MultiLock {
 public:
  using Clock = std::chrono::steady_clock;

  // Throws InvalidArgument for no members or a member given twice.
  explicit MultiLock(std::vector<std::shared_ptr<LockMember>> members);

  // True when every member is held; false when the wait ran out (nothing
  // held). Throws InterruptedError, ClosedError, ConnectionError,
  // ProtocolError, LostError (re-entering a lost hold).
  bool acquire(const GroupRequest& request) { return acquire_wait(request)->run(); }
  // The same acquire as a wait for a driver to run (core/wait_process.hpp).
  std::shared_ptr<WaitProcess> acquire_wait(const GroupRequest& request);
  // Throws NotOwnerError, LostError (a member was lost), ConnectionError.
  void release(uint64_t owner) {
    group_.release(owner, [this](uint64_t who, const std::vector<bool>& held) {
      return group_.release_in_turn(who, held);
    });
  }
  MemberGroup& group() { return group_; }

 private:
  MemberGroup group_;
};

}  // namespace dlock
