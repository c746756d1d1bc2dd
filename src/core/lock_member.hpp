// One lock of a MultiLock or a RedLock, as they see it. Any lock kind that
// can be tried once, waited for on a channel, released and checked for loss
// implements this (the reentrant lock today; a fair lock or the write side of
// a read-write lock later) and becomes a member without the groups changing.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/async_runner.hpp"
#include "core/lost_callback.hpp"
#include "core/wait_watch.hpp"
#include "core/waiter.hpp"

namespace dlock {

class LockMember {
 public:
  using Clock = std::chrono::steady_clock;

  virtual ~LockMember() = default;

  // Where the member's data lives, "redis://host:port/db" of its client (no
  // password): members with the same server are not independent.
  virtual const std::string& server() const = 0;
  virtual const std::string& name() const = 0;

  struct Outcome {
    bool granted = false;
    int64_t holder_ttl_ms = -1;  // when not granted: the holder's remaining lease (-1 unknown)
  };
  // One attempt for `owner`, re-entering the owner's hold without a round
  // trip. lease_ms -1: kept alive by the member's watchdog. `on_lost` is
  // called once should a fresh grant be lost. Throws ConnectionError,
  // ClosedError, ProtocolError, LostError (re-entering a lost hold).
  virtual Outcome try_once(uint64_t owner, int64_t lease_ms,
                           const std::shared_ptr<LostCallback>& on_lost) = 0;
  // Counts a re-entry of the owner's hold (no round trip); false when it has
  // none. Throws LostError when the hold is known lost.
  virtual bool reenter(uint64_t owner) = 0;

  // While the result lives, a release of the member (or news that one may
  // have been missed: a subscription made, a reconnect) signals `waiter`.
  virtual std::unique_ptr<WaitWatch> watch(Waiter& waiter) = 0;

  // Releases one hold of `owner`. Throws NotOwnerError, LostError, ConnectionError.
  virtual void release(uint64_t owner) = 0;
  // Releases, best effort, a grant `owner` may have been given without
  // hearing of it (the reply was lost); touches nothing when the owner has a
  // recorded hold. Never throws.
  virtual void release_unrecorded(uint64_t owner) noexcept = 0;

  // Until when `owner`'s hold is trusted (a grant or renewal's send time plus
  // the lease less a margin); nullopt when it is not held or known lost.
  virtual std::optional<Clock::time_point> valid_until(uint64_t owner) = 0;
  // Whether the owner's hold ended because its fixed lease ran out as asked
  // (an expiry, not a loss).
  virtual bool expired(uint64_t owner) = 0;
  // Whether the member's client was closed.
  virtual bool closed() = 0;
  // The lease a watchdog hold of this member gets (its client's setting).
  virtual int64_t watchdog_lease_ms() = 0;
  // The async runner of the member's client. Throws ClosedError.
  virtual AsyncRunner& async_runner() = 0;
};

}  // namespace dlock
