// What a client believes it holds: one entry per (lock name, owner), with
// the re-entry count kept here (Redis's field stays 1), the fencing token,
// and the local validity deadline measured on the monotonic clock from the
// moment the granting or renewing request was sent (S2).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/grant_ref.hpp"
#include "core/held_resource.hpp"
#include "core/lost_callback.hpp"
#include "core/stats.hpp"

namespace dlock {

using Clock = std::chrono::steady_clock;

// How long after sending a grant or renewal the client trusts it: the lease
// less a margin (a twentieth, 2 ms to 500 ms) for the server's clock running
// faster than ours and for the watchdog to report a loss in time, so the
// client's belief ends before the server's lease does (S2, S6).
std::chrono::milliseconds trusted_validity(int64_t lease_ms);

struct Hold {
  uint64_t grant_id = 0;  // tells a renewal reply which grant it was for
  std::shared_ptr<const HeldResource> resource;
  uint64_t owner = 0;
  GrantRef grant;
  int count = 0;
  int64_t lease_ms = 0;
  bool watchdog = false;  // renewed until release, else a fixed lease
  bool lost = false;      // no longer held: lost, or expired (then `expired` is set too)
  bool expired = false;   // a fixed lease that ran out as asked: expiry, not loss
  Clock::time_point granted_at;  // when the granting request was sent
  Clock::time_point valid_until;
  Clock::time_point renew_at;  // watchdog holds
  const void* taken_through = nullptr;  // the handle whose free releases it
  std::shared_ptr<LostCallback> on_lost;

  // Marks the hold ended, as found by a request sent at `found_at`: the one
  // place expiry is told from loss. A fixed lease whose end had come expired
  // as asked; a watchdog lease that lapsed, or a fixed one found gone before
  // its end (taken, force-released, deleted), was lost.
  void end(Clock::time_point found_at) {
    lost = true;
    expired = !watchdog && found_at >= valid_until;
  }
};

// How long a release's request id is kept for retries (release.lua's latch):
// a pending release is retried until the hold's validity ends, within its lease.
//
// So a fixed lease of a year keeps the owner's latch key a year. Keeping only
// the retry window when the lease exceeds it is not safe as things stand: a
// retry of this release (or of a withdrawal) can still run up to the lease's
// end, and one that ran after the latch expired would find the same owner's
// next hold (a thread that acquired again meanwhile: same owner field) and
// delete it, since release.lua checks the owner and the latch, not which grant
// the release was for. Shortening it needs both: retries of a release bounded
// by the window, and release scripts that refuse a request older than the
// hold's grant (the grant key has its request id).
inline int64_t release_latch_ms(const Hold& hold, int64_t retry_window_ms) {
  return hold.lease_ms + retry_window_ms;
}

// A hold found ended (lost, or expired), with what its callback and the log
// record need.
struct LostNotice {
  std::shared_ptr<LostCallback> on_lost;
  std::string name;
  uint64_t owner;
  uint64_t token;
  Clock::time_point granted_at;
  const char* how;  // static text: how the loss was found
  bool expiry;      // the hold's fixed lease ran out as asked
  int64_t lease_ms;

  // The notice of an ended hold (Hold::end): `how` says how a loss was found.
  static LostNotice of(const Hold& hold, const char* how);

  // Counts the end, logs it (naming `server`) and calls the handle's
  // callback. A loss is `locks_lost` and a WARN record; an expiry is
  // `expiries` and an INFO record. The callback is called for both: the
  // section the hold guarded is unprotected either way.
  void deliver(ClientStats& stats, const std::string& server) const;
};

// How a loss was found, for the log.
inline constexpr const char* lost_at_renewal = "a renewal found it gone or held by another owner";
inline constexpr const char* lost_at_deadline = "its lease ran out before a renewal succeeded";
inline constexpr const char* lost_at_release = "the release found it gone or held by another owner";

// What an operation on an ended hold throws: ExpiredError when its fixed lease
// ran out as asked, else LostError. `what` names the operation and the hold
// ("release: the hold on 'x'"), `loss` completes it for a loss ("was lost (...)").
[[noreturn]] void throw_ended(const Hold& hold, const std::string& what, const std::string& loss);

class Holds {
 public:
  using Key = std::pair<std::string, uint64_t>;

  // The hold of (name, owner), if any: a copy, since others may change it.
  // A hold being released has left the table: a release that failed is the
  // client's pending request from then on (core/pending_requests.hpp).
  std::optional<Hold> find(const std::string& name, uint64_t owner);

  // Counts a re-entry. Returns the hold's token, nullopt when there is no
  // hold; throws LostError when the hold is known lost.
  std::optional<uint64_t> reenter(const std::string& name, uint64_t owner);

  void insert(Hold hold);

  // Removes one re-entry. Returns the hold as it was, nullopt when there is
  // none; an outermost hold leaves the table: the caller releases it on the
  // server.
  std::optional<Hold> leave(const std::string& name, uint64_t owner);
  // Removes the hold when it is not re-entered (count 1). Returns the hold as
  // it was, removed or not; nullopt when there is none.
  std::optional<Hold> take_if_outermost(const std::string& name, uint64_t owner);

  std::vector<Hold> take_all();
  std::vector<Hold> taken_through(const void* handle);
  // The owners of `name` whose hold, lost or not, was taken through `handle`.
  int count_taken_through(const std::string& name, const void* handle);

  // Watchdog: the holds to renew now (due before `horizon`), and the deadline
  // checks: holds whose validity ended are marked lost and returned.
  std::vector<Hold> due_for_renewal(Clock::time_point horizon);
  std::vector<LostNotice> expire(Clock::time_point now);
  Clock::time_point next_deadline(Clock::time_point fallback);
  Clock::time_point earliest_validity_end(Clock::time_point fallback);

  // Applies a renewal sent at `sent_at`: extends the grant, or marks it lost.
  std::optional<LostNotice> renewed(const Hold& hold, bool still_owned, Clock::time_point sent_at);
  void retry_renewal_at(const Hold& hold, Clock::time_point when);
  // Applies a fixed lease's extension to `lease_ms`, sent at `sent_at`.
  void extended(const Hold& hold, int64_t lease_ms, Clock::time_point sent_at);

 private:
  Hold* find_grant(const Hold& hold);

  std::mutex mutex_;
  std::map<Key, Hold> holds_;
};

}  // namespace dlock
