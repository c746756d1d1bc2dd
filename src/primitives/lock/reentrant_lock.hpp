// The reentrant lock's operations, on one client and one lock name.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "core/cancel.hpp"
#include "core/client_core.hpp"
#include "core/held_resource.hpp"
#include "core/lock_ops.hpp"
#include "core/lost_callback.hpp"

namespace dlock {

struct AcquireRequest {
  uint64_t owner = 0;
  int64_t wait_ms = 0;  // 0 one attempt, -1 forever
  // With wait_ms 0: the first attempt of a wait the caller starts next, so it
  // respects the waiters' turn as the wait's attempts do (a plain single
  // attempt barges).
  bool before_wait = false;
  int64_t lease_ms = -1;  // -1 watchdog
  Cancel* cancel = nullptr;
  const void* handle = nullptr;
  std::shared_ptr<LostCallback> on_lost;
};

class ReentrantLock {
 public:
  // `ops` is the lock, or another kind taken with the same steps (the fair
  // lock, a side of a read-write lock, an election's leadership).
  ReentrantLock(ClientCore& core, std::shared_ptr<LockOps> ops);

  // The fencing token of the hold, or nullopt when the wait ran out. Throws
  // InterruptedError, ClosedError, ConnectionError, ProtocolError, LostError,
  // UnsupportedError (a fixed lease on a backend without them).
  std::optional<uint64_t> acquire(const AcquireRequest& request);
  // The start of every acquire (blocking, async, a group member's), before
  // anything is built for a wait: counts a re-entry of the owner's hold and
  // returns its token, nullopt when the owner holds nothing (a release of its
  // left pending is no hold: the acquire's first attempt settles it). No
  // round trip. Throws ClosedError, LostError (the hold is known lost).
  // Always nullopt for a kind that is not reentrant (LockOps::reentrant).
  std::optional<uint64_t> reenter(uint64_t owner);
  // Throws NotOwnerError, LostError.
  void release(uint64_t owner);
  // Sets the remaining lease of the owner's fixed-lease hold to `lease_ms`.
  // Throws NotOwnerError, LostError, InvalidArgument for a watchdog hold.
  void extend(uint64_t owner, int64_t lease_ms);
  // Ends the owner's outermost hold but leaves the lock taken, unrenewed, for
  // keep_ms. Throws NotOwnerError, LostError, InvalidArgument for a
  // re-entered hold, UnsupportedError for a kind that does not keep
  // (LockOps::keeps).
  void release_keeping(uint64_t owner, int64_t keep_ms);
  bool force_release();
  bool is_locked();
  int64_t ttl_ms();

  // Releases, best effort, a grant `owner` may have been given without
  // hearing of it (its reply was lost); touches nothing when the owner has a
  // recorded hold, nor one whose withdrawal is pending already.
  void release_unrecorded(uint64_t owner);

  // Releases, best effort, the holds taken through `handle` (it is freed).
  void release_taken_through(const void* handle);

 private:
  // The steps of an acquire, taken by AcquireProcess.
  friend class AcquireProcess;
  // Refuses a fixed lease (lease_ms >= 0) on a backend without them
  // (LockOps::fixed_leases) with InvalidArgument, before any round trip.
  void check_lease(int64_t lease_ms) const;
  // After an attempt that failed once it may have reached the server: its
  // release, a pending request withdrawn in the background, outranks it
  // should it run later.
  void withdraw(const AcquireRequest& request, const std::string& field, int64_t lease_ms);
  // Settles the owner's pending request on this lock (a release left pending
  // by an error, a withdrawal), if any, before it acquires again: a late
  // retry must not release the new hold. Throws what settling meets.
  void settle_pending(uint64_t owner);
  // The owner's slot among the client's pending requests: one at a time.
  std::string pending_caller(uint64_t owner) const;
  // The release of `hold`'s field under `request_id` as a pending request,
  // tried until `give_up_at`: finished (a release that failed: a reply
  // finding the hold gone is the loss's one notice, and what the caller's
  // retry throws) or withdrawn (an acquire that failed: the caller never
  // held it).
  PendingRequest pending_release(const Hold& hold, const std::string& request_id, bool finish,
                                 Clock::time_point give_up_at) const;
  // A hold of `request`'s owner in the table's shape, with nothing granted yet.
  Hold new_hold(const AcquireRequest& request, const std::string& field, int64_t lease_ms) const;
  uint64_t record_grant(const AcquireRequest& request, const std::string& field, int64_t lease_ms,
                        const LockWait::Try& grant);
  bool run_release(const Hold& hold, const std::string& request_id);
  // Counts, logs and reports a loss or an expiry to the handle's callback.
  void deliver(const LostNotice& notice);
  // A hold already out of the table that its release (or keep), sent at
  // `sent_at`, found gone: the one and only notice of it. Returns the hold
  // marked ended (expired or lost, Hold::end).
  Hold deliver_found_by_release(Hold hold, Clock::time_point sent_at);

  // Whether a non-reentrant lock's `owner` holds it already, so its acquire
  // must wait for that hold's release without asking the server (a request
  // under the owner's field would be taken for the hold's own). Throws
  // LostError when that hold is known lost: its release tells the owner.
  bool held_against_reentry(uint64_t owner);

  const std::string& name() const { return ops_->name(); }
  const std::string& hold_key() const { return ops_->hold_key(); }

  ClientCore& core_;
  std::shared_ptr<LockOps> ops_;
  std::shared_ptr<const HeldResource> resource_;  // ops_->held()
};

}  // namespace dlock
