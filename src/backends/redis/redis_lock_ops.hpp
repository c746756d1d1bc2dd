// A lock kind's operations on Redis (core/lock_ops.hpp): each a round trip
// through ClientCore::execute to the kind's Lockable. RedisBackend builds
// them, one per handle.
#pragma once

#include <memory>
#include <string>

#include "backends/redis/lock_ops/lock_keys.hpp"
#include "backends/redis/lockable.hpp"
#include "core/client.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class RedisLockOps final : public LockOps {
 public:
  // Each call runs on `client`'s core of the moment: a handle's ops serve a
  // child process after fork() on the child's own core.
  // `reentrant` false: the non-reentrant lock, on the reentrant lock's hash
  // (the engine keeps its holder out; NonReentrantLockResource's acquire
  // refuses another acquire under the holder's field).
  RedisLockOps(std::shared_ptr<Client> client, std::shared_ptr<const Lockable> resource,
               bool reentrant = true)
      : client_(std::move(client)), resource_(std::move(resource)), reentrant_(reentrant) {}

  const char* backend() const override { return "redis"; }
  bool fixed_leases() const override { return true; }
  bool reentrant() const override { return reentrant_; }
  const std::string& name() const override { return resource_->name(); }
  const std::string& hold_key() const override { return resource_->hold_key(); }
  std::string hold_field(const std::string& client_field) const override {
    return resource_->hold_field(client_field);
  }
  std::shared_ptr<const HeldResource> held() const override { return resource_; }

  std::unique_ptr<LockWait> begin(const std::string& owner_field, int64_t lease_ms) override;
  // The kind's release channel.
  std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) override;
  // By the grant's owner field alone: a hash field names the hold.
  bool release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  Settle settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) override;
  // The kind's renewal script.
  Extension extend(const GrantRef& grant, int64_t lease_ms) override;
  // The reentrant lock's hash (so the fair lock's and the election's too):
  // keep.lua renames the holder's field and sets the lease.
  bool keeps() const override;
  bool release_keeping(const GrantRef& grant, int64_t keep_ms) override;
  bool force_release() override;
  bool is_locked() override;
  int64_t ttl_ms() override;
  // The reentrant lock's (inspect.lua); another kind's is unsupported.
  LockInspection inspect() override;
  // The reentrant lock's (lock_ops/holder_note.hpp); another kind's is unsupported.
  bool note_holder(const std::string& field, const std::string& note) override;
  std::optional<HolderNote> holder_note() override;

 private:
  // The reentrant lock's keys; nullptr for another kind.
  const LockKeys* plain_keys() const;

  const std::shared_ptr<Client> client_;
  const std::shared_ptr<const Lockable> resource_;
  const bool reentrant_;
};

}  // namespace dlock
