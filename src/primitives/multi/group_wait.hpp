// What a group's waiting acquire sleeps on: one waiter, signalled by a
// release message on the channel of any member it watches (the members that
// refused the last attempt), woken by the cancel token or a closing client.
// Never a timer-driven retry: the sleeper also wakes when the earliest
// holder's lease runs out (a crashed holder publishes nothing).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/cancel.hpp"
#include "core/lock_member.hpp"
#include "core/waiter.hpp"

namespace dlock {

class GroupWait {
 public:
  using Clock = std::chrono::steady_clock;

  GroupWait(const std::vector<std::shared_ptr<LockMember>>& members, Cancel* cancel);
  ~GroupWait();
  GroupWait(const GroupWait&) = delete;
  GroupWait& operator=(const GroupWait&) = delete;

  // Watches exactly the members `busy` marks (a new watch signals at once
  // when its channel is already subscribed, so a release in between is not
  // missed). Members the caller itself let go of are not watched: their
  // release messages would only wake the caller itself.
  void watch(const std::vector<bool>& busy);
  // Sleeps until a release message, `until`, a cancel or a closed member.
  // Returns whether a message (or a subscription) signalled.
  bool sleep_until(Clock::time_point until);
  // Sleeps until `until` or a cancel / close; messages do not cut it short.
  void pause_until(Clock::time_point until);
  // Throws InterruptedError when cancelled, ClosedError when a member's client closed.
  void throw_if_stopped(const std::string& what);

 private:
  bool stopped();

  const std::vector<std::shared_ptr<LockMember>>& members_;
  Cancel* cancel_;
  Waiter waiter_;  // declared before the watches, which must end first
  std::map<size_t, std::unique_ptr<LockMember::Watch>> watches_;
};

}  // namespace dlock
