// What a backend gives the lock kinds' client-side flows for one name of one
// kind (docs/design/backends.md, 1.3): a wait from its first try to the grant
// or giving up, the wake-ups of a group's member, and the round trips on a
// hold and on the name. The flows themselves (re-entry, recording the grant,
// withdrawals, loss notices, the one wait engine of core/wait_process.hpp)
// stay in core/ and primitives/.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "core/grant_ref.hpp"
#include "core/lock_inspection.hpp"
#include "core/pending_requests.hpp"
#include "core/wait_watch.hpp"
#include "core/waiter.hpp"

namespace dlock {

class HeldResource;

// One acquire of one owner; the engine's WaitAttempts delegates to it.
// Destroying it stops its watch.
class LockWait {
 public:
  struct Try {
    bool granted = false;
    uint64_t token = 0;  // when granted: the fencing token
    // When granted: where the grant lives when its name does not say
    // (GrantRef::locator; ZooKeeper: our node's path). Empty on Redis.
    std::string locator;
    std::chrono::steady_clock::time_point sent_at;  // when the try that answered was sent
    // Refused: when to look again though no news came (the holder's lease
    // ends then; a crashed holder announces nothing). nullopt: news alone.
    std::optional<std::chrono::milliseconds> retry_after;
  };

  virtual ~LockWait() = default;
  // One try; wait_left_ms as WaitAttempts::attempt's. Throws ConnectionError
  // (the try may have reached the server: the caller withdraws it),
  // ProtocolError, ClosedError.
  virtual Try attempt(int64_t wait_left_ms, bool woken_by_message) = 0;
  // After a refused try: registers `waiter` where news of the next chance
  // comes from, before the retry its confirmation triggers.
  virtual void watch(Waiter& waiter) = 0;
  // The wait ends without a grant: leaves what it queued on the server, in
  // the background. Never blocks on the network.
  virtual void abandon() noexcept = 0;
};

// One name of one lock kind, built by the client's Backend.
class LockOps {
 public:
  virtual ~LockOps() = default;
  // The URL scheme that names the backend ("redis"), for errors.
  virtual const char* backend() const = 0;
  // Whether a hold may have a fixed lease (lease_ms >= 0). A backend whose
  // holds last as long as its session (ZooKeeper) has none: its holds are all
  // the watchdog's, and extend() is unsupported.
  virtual bool fixed_leases() const = 0;
  // Whether an owner holding it is let in again (a re-entry, counted by the
  // client). False for the non-reentrant lock: the holder's acquire waits,
  // as another owner's does, until the hold is released (ReentrantLock).
  virtual bool reentrant() const = 0;
  // The name the caller gave.
  virtual const std::string& name() const = 0;
  // What the client's holds of it are keyed by, with the owner: the sides of
  // a read-write lock differ.
  virtual const std::string& hold_key() const = 0;
  // The owner's field on the server, given the client's `<client-uuid>:<owner>`.
  virtual std::string hold_field(const std::string& client_field) const = 0;
  // What the client's holds keep to renew and let go of a hold, until grants
  // carry what the keeper and the pending requests need.
  virtual std::shared_ptr<const HeldResource> held() const = 0;
  // A wait for `owner_field`'s hold with `lease_ms`.
  virtual std::unique_ptr<LockWait> begin(const std::string& owner_field, int64_t lease_ms) = 0;
  // While the result lives, any release of the name (or news that one may
  // have been missed) signals `waiter`: a group's member that refused.
  virtual std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) = 0;

  // Lets `grant`'s hold go; whether it was still held. Safe to retry under
  // the same `request_id` for `latch_ms`. A grant with no locator is one the
  // owner may have been given unheard (a withdrawal): the backend finds it
  // by its owner field if it can. Throws ConnectionError.
  virtual bool release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) = 0;
  // That release as a pending request's settle (answer 1 released, 0 gone),
  // for the watchdog and the owner's next call to retry.
  virtual Settle settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) = 0;
  struct Extension {
    bool still_owned;                               // false: gone, or another owner's
    std::chrono::steady_clock::time_point sent_at;  // of the request that answered
  };
  // Sets the remaining lease of `grant`'s hold to `lease_ms` (Redis finds it
  // by the owner field; SQL matches the grant's token and text too).
  virtual Extension extend(const GrantRef& grant, int64_t lease_ms) = 0;
  // Whether this kind serves release_keeping.
  virtual bool keeps() const = 0;
  // Ends `grant`'s hold but leaves the name taken, unrenewed, for `keep_ms`;
  // whether it was still held. Only for a kind that keeps().
  // Throws ConnectionError.
  virtual bool release_keeping(const GrantRef& grant, int64_t keep_ms) = 0;
  // Deletes the hold whoever has it; whether there was one.
  virtual bool force_release() = 0;
  virtual bool is_locked() = 0;
  // The remaining lease, -2 when not held.
  virtual int64_t ttl_ms() = 0;
  // Who holds it, in one consistent snapshot. Throws UnsupportedError where
  // the kind or the backend has none; ProtocolError when the name holds
  // something that is not a lock.
  virtual LockInspection inspect() { unsupported("inspect", "cannot inspect this kind of lock"); }
  // Records `note` (what `dlock status` shows beside the holder: its host,
  // pid) for the hold of `field` (hold_field's) while it holds the lock,
  // replacing the last note; whether it held. Throws UnsupportedError where
  // the kind or the backend keeps no note.
  virtual bool note_holder(const std::string& /*field*/, const std::string& /*note*/) {
    unsupported("note_holder", "keeps no holder note for this kind of lock");
  }
  // The last note recorded, nullopt when none. Throws as note_holder.
  virtual std::optional<HolderNote> holder_note() {
    unsupported("read_holder_note", "keeps no holder note for this kind of lock");
  }

 protected:
  [[noreturn]] void unsupported(const char* operation, const char* why) const {
    throw UnsupportedError(std::string(operation) + " '" + name() + "': the " + backend() + " backend " +
                           why);
  }
};

}  // namespace dlock
