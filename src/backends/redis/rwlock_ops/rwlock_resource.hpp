// The two sides of a read-write lock as the core holds them. Each is a
// Lockable, so the lock's acquire steps, re-entry, release and the watchdog's
// batched renewals run on them unchanged; only the scripts differ.
#pragma once

#include <atomic>
#include <string>

#include "backends/redis/lockable.hpp"
#include "backends/redis/net/url.hpp"
#include "backends/redis/rwlock_ops/rwlock_keys.hpp"

namespace dlock {

struct RwLockScripts {
  static Script& read_acquire();
  static Script& write_acquire();
  static Script& read_release();
  static Script& write_release();
  static Script& read_renew();
  static Script& write_renew();
  static Script& force_release();
  static Script& is_locked();
  static Script& withdraw_intent();
  static Script& intent_heartbeat();
};

// What both sides share: the keys, and the calls that differ only by mode.
class RwLockSide : public Lockable {
 public:
  RwLockSide(std::string name, const char* mode);

  const std::string& name() const override { return keys_.name; }
  const std::string& hold_key() const override { return hold_key_; }
  const std::string& channel() const override { return keys_.channel; }
  bool force_release(Connection& connection) const override;
  bool is_locked(Connection& connection) const override;
  int64_t ttl_ms(Connection& connection) const override;
  // Redisson's READ_UNLOCK_MESSAGE: the lock was let go in a way that may
  // admit several waiters (readers) at once.
  std::string_view wake_all_message() const override { return "1"; }

  const RwLockKeys& keys() const { return keys_; }

 protected:
  // An acquire script's reply: the token, or {how long to wait}.
  Attempt parse_attempt(const Reply& reply) const;
  bool released(const Reply& reply) const;

  const RwLockKeys keys_;
  const char* mode_;  // "read" or "write"
  // The name and the side, split by a NUL that no name passed through the C
  // ABI contains: never the hold key of a lock or of the other side.
  std::string hold_key_;
};

class ReadSide final : public RwLockSide {
 public:
  // The arguments every lock kind's handle is made with (c_api/lock_ops.hpp).
  ReadSide(std::string name, const ClientConfig& /*config*/) : RwLockSide(std::move(name), "read") {}

  Script& renewal_script() const override { return RwLockScripts::read_renew(); }
  Argv renewal_keys() const override { return {keys_.name, keys_.tagged}; }
  bool release(Connection& connection, const std::string& field, const std::string& request_id,
               int64_t retry_window_ms) const override;
  Attempt attempt(Connection& connection, const std::string& field, int64_t lease_ms, int64_t wait_left_ms,
                  const std::string& request_id) const override;
};

// The write side is also what the client's wait heartbeat keeps alive for a
// waiting writer: its write intent (see write_acquire.lua).
class WriteSide final : public RwLockSide, public ServerQueue {
 public:
  WriteSide(std::string name, const ClientConfig& /*config*/) : RwLockSide(std::move(name), "write") {}

  // Redisson's write lock names its owner '<client-uuid>:<owner>:write'.
  std::string hold_field(const std::string& client_field) const override;
  Script& renewal_script() const override { return RwLockScripts::write_renew(); }
  Argv renewal_keys() const override { return {keys_.name}; }
  bool release(Connection& connection, const std::string& field, const std::string& request_id,
               int64_t retry_window_ms) const override;
  Attempt attempt(Connection& connection, const std::string& field, int64_t lease_ms, int64_t wait_left_ms,
                  const std::string& request_id) const override;

  // A waiting writer's intent, while writers are preferred: kept by the heartbeat.
  const ServerQueue* server_queue() const override { return prefers_writers() ? this : nullptr; }
  Script& heartbeat_script() const override { return RwLockScripts::intent_heartbeat(); }
  Argv heartbeat_keys() const override { return {keys_.intent, keys_.name}; }
  Argv heartbeat_args() const override { return {intent_ms_}; }
  // withdraw_intent.lua: the writer's intent goes, and the readers it held back wake.
  void leave(Connection& connection, const std::string& field) const override;

  // Whether a waiting writer sets the write intent that holds new dlock
  // readers back (the default); off, readers are preferred, as in Redisson.
  void prefer_writers(bool on) const { prefer_writers_.store(on, std::memory_order_relaxed); }

 private:
  bool prefers_writers() const { return prefer_writers_.load(std::memory_order_relaxed); }

  mutable std::atomic<bool> prefer_writers_{true};
  // The intent's expiry, which the heartbeat renews: one lapses within this of
  // its writer's death or pause.
  const std::string intent_ms_ = std::to_string(wait_liveness.count());
};

}  // namespace dlock
