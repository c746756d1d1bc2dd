// A primitive whose holds are taken, waited for, re-entered, renewed and let
// go the way the reentrant lock's are: one field per owner on a key, a
// wake-up channel, a script that grants or says how long the holder has
// left. The lock's acquire steps and release run on any of them, so a
// dlock_lock handle can stand for the reentrant lock, the fair lock or
// either side of a read-write lock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "backends/redis/redis_held.hpp"
#include "backends/redis/wait_heartbeat.hpp"

namespace dlock {

class Lockable : public RedisHeld {
 public:
  struct Attempt {
    bool granted;
    int64_t value;  // the fencing token when granted, else the holder's PTTL (< 0: wait for a message alone)
    // When refused: the number a release names this owner's turn by on the
    // channel (the reentrant lock's; 0 none).
    uint64_t turn_number = 0;
  };

  // The owner's field on Redis, given the client's `<client-uuid>:<owner>`.
  virtual std::string hold_field(const std::string& client_field) const { return client_field; }
  // The channel every release of the name is announced on.
  virtual const std::string& channel() const = 0;
  // The channel whose messages tell `field`'s waiter to try again: the
  // release channel, unless the kind wakes its waiters one by one.
  virtual std::string wake_channel(const std::string& /*field*/) const { return channel(); }
  // One attempt for `field` with `lease_ms`, sent as `request_id` (a kind
  // without a retry latch may ignore it); `wait_left_ms` is how long the
  // caller will still wait (0 a single attempt, -1 forever).
  virtual Attempt attempt(Connection& connection, const std::string& field, int64_t lease_ms,
                          int64_t wait_left_ms, const std::string& request_id) const = 0;
  // Deletes the hold whoever has it; whether there was one.
  virtual bool force_release(Connection& connection) const = 0;
  virtual bool is_locked(Connection& connection) const = 0;
  // The remaining lease, -2 when not held.
  virtual int64_t ttl_ms(Connection& connection) const = 0;

  // What waiters leave on the server while they wait (the fair lock's queue,
  // the read-write lock's write intent): they heartbeat it while they wait and
  // leave it when they stop without the hold.
  virtual const ServerQueue* server_queue() const { return nullptr; }
  // The payload of a release message that may admit several waiters at once,
  // so it wakes them all (Waiter::wakes_all); empty: each message wakes one.
  virtual std::string_view wake_all_message() const { return {}; }

 protected:
  // An acquire script's reply, as every kind's gives it: the token when
  // granted, else {the holder's PTTL} or {the holder's PTTL, the turn's
  // number}; `what` names the call in errors.
  static Attempt parse_attempt(const Reply& reply, const std::string& what);
};

}  // namespace dlock
