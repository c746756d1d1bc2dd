// What a group's side of a wait (core/wait_process.hpp) shares between
// MultiLock and RedLock: it watches the channels of exactly the members that
// refused its last attempt (a release message there, or its subscription
// becoming active, wakes the wait), and it stops when any member's client
// closes. Members the caller let go of itself are not watched: their release
// messages would only wake the caller.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/lock_member.hpp"
#include "core/wait_process.hpp"
#include "primitives/multi/member_group.hpp"
#include "primitives/multi/multi_lock.hpp"

namespace dlock {

class GroupAttempts : public WaitAttempts {
 public:
  GroupAttempts(MemberGroup& group, const char* kind, const GroupRequest& request);

  // The wait's deadline and cancel, for the engine (a group counts no stats:
  // its members' clients may be several).
  WaitSpec spec() const { return {request_.wait_ms, request_.cancel, nullptr, what_}; }

  void watch(Waiter& waiter) override;
  void stop(bool /*granted*/) noexcept override { watches_.clear(); }
  bool closed() override;
  // Throws ClosedError naming the member whose client was closed.
  void throw_if_closed() override;

 protected:
  MemberGroup& group_;
  const GroupRequest request_;
  std::vector<bool> busy_;  // the members that refused the last attempt (held by another owner)

 private:
  const std::string what_;
  std::map<size_t, std::unique_ptr<WaitWatch>> watches_;
};

}  // namespace dlock
