// What a MultiLock and a RedLock share: their members in canonical order,
// and per owner the group's hold (re-entries, which members it holds, loss).
//
// Canonical order: members are sorted by (server, name), so two callers
// locking overlapping sets given in different orders take the shared members
// in the same order; and a group never waits while holding a member (a failed
// attempt lets go of everything first), so no two groups can deadlock.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/lock_member.hpp"
#include "core/lost_callback.hpp"

namespace dlock {

class MemberGroup {
 public:
  using Clock = std::chrono::steady_clock;

  // How many members must stay held for the group to hold: all (MultiLock)
  // or a majority (RedLock).
  enum class Needed { all, majority };
  // `kind` names the group in messages.
  MemberGroup(std::vector<std::shared_ptr<LockMember>> members, Needed needed, const char* kind);
  ~MemberGroup();
  MemberGroup(const MemberGroup&) = delete;
  MemberGroup& operator=(const MemberGroup&) = delete;

  const std::vector<std::shared_ptr<LockMember>>& members() const { return members_; }
  size_t needed() const { return needed_; }
  // The members' names joined by ',' (in canonical order): the name the lost
  // callback gets.
  const std::string& name() const { return name_; }
  // The callback handed to member i's grants: it reports their loss here.
  const std::shared_ptr<LostCallback>& member_callback(size_t i) const { return member_callbacks_[i]; }
  // The runner of the first member's client: the group's async acquires
  // run there. Throws ClosedError.
  AsyncRunner& async_runner() { return members_.front()->async_runner(); }
  // The group's own lost callback, called once per lost group hold.
  LostCallback& on_lost() { return *on_lost_; }

  // Re-enters the owner's group hold (each held member re-entered, no round
  // trip). False when the owner holds nothing. Throws LostError (nothing
  // re-entered) when the hold is lost.
  bool reenter(uint64_t owner);
  // Records a fresh group hold of `held` members (a fixed lease's group
  // deadline, if any, in `valid_until`).
  void record(uint64_t owner, std::vector<bool> held, std::optional<Clock::time_point> valid_until);

  struct Hold {
    int count = 0;
    // Which members the hold took, and which of those were lost since: a
    // lost member stays in `held`, so the group's release drops its hold from
    // the client too (else the owner could never take the group again).
    std::vector<bool> held;
    std::vector<bool> lost_members;
    bool lost = false;
    bool expired = false;  // lost because a member's fixed lease ran out as asked
    std::optional<Clock::time_point> valid_until;  // the group deadline of a fixed lease
  };
  std::optional<Hold> find(uint64_t owner);
  // Removes one re-entry; returns the hold as it was (nullopt: none). The
  // outermost leaves the table.
  std::optional<Hold> leave(uint64_t owner);

  // Releases each member `held` marks, best effort (a failed attempt's undo).
  void release_members(uint64_t owner, const std::vector<bool>& held) noexcept;
  // What releasing the members of a hold came to.
  struct MembersReleased {
    size_t released = 0;       // members whose hold was still there
    size_t expired = 0;        // members whose fixed lease had run out as asked
    std::exception_ptr error;  // the first failure other than a loss (unreachable, closed)
  };
  // Counts one member's release, run by `release_one` (which throws as
  // LockMember::release does) into `tally`.
  static void count_release(MembersReleased& tally, const std::function<void()>& release_one);
  // Releases the members `held` marks one after another.
  MembersReleased release_in_turn(uint64_t owner, const std::vector<bool>& held);
  using ReleaseHeld = std::function<MembersReleased(uint64_t owner, const std::vector<bool>& held)>;

  // The release of a group hold: releases one hold of each member it holds
  // (the outermost through `outermost`, inner ones in turn: they make no round
  // trip). Succeeds when at least `needed` members were released; else throws
  // LostError (the group hold was lost, or too few were still held) or the
  // first error. NotOwnerError when the owner holds nothing.
  void release(uint64_t owner, const ReleaseHeld& outermost);

  // Releases, best effort, every owner's holds (the group's handle is freed).
  void release_all() noexcept;
  // The owner's re-entries of its group hold (0 when none).
  int hold_count(uint64_t owner);
  // Whether the owner holds the group and its hold is still valid (not lost,
  // and its validity has not run out), as a plain lock's is_held.
  bool is_held(uint64_t owner);

  // The group hold's trusted end: the needed-th latest of its members'
  // trusted ends, and no later than its own deadline; nullopt when not held
  // or lost.
  std::optional<Clock::time_point> valid_until(uint64_t owner);

 private:
  void member_lost(size_t index, uint64_t owner);
  size_t count_held(const Hold& hold) const;
  // The error of a group hold that ended: ExpiredError when it expired.
  [[noreturn]] void throw_ended(bool expired, const std::string& what) const;

  std::vector<std::shared_ptr<LockMember>> members_;
  const size_t needed_;
  const char* kind_;
  std::string name_;
  // Member i's holds call member_callbacks_[i], which reports to the group.
  std::vector<std::shared_ptr<LostCallback>> member_callbacks_;
  std::shared_ptr<LostCallback> on_lost_ = std::make_shared<LostCallback>();
  std::mutex mutex_;
  std::map<uint64_t, Hold> holds_;
};

}  // namespace dlock
