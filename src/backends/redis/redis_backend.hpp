// The Redis backend (core/backend.hpp): the lock kinds' resources in
// Redisson's layouts (lock_ops/, fair_lock_ops/, rwlock_ops/), each behind a
// RedisLockOps.
#pragma once

#include <memory>
#include <string>

#include "core/backend.hpp"
#include "core/client.hpp"

namespace dlock {

class RedisBackend final : public Backend {
 public:
  explicit RedisBackend(std::shared_ptr<Client> client) : client_(std::move(client)) {}

  const char* scheme() const override { return "redis"; }
  // Serves every kind.
  std::shared_ptr<LockOps> lock(const std::string& name, LockKind kind) override;
  // The hashes under `prefix`, found with SCAN (lock_listing.hpp).
  std::vector<std::string> list_locks(const std::string& prefix) override;
  // nullptr: Redisson's RPermitExpirableSemaphore layout (primitives/permit_semaphore).
  std::shared_ptr<PermitLeases> permit_leases(const std::string& name) override;
  // The leadership in the lock's layout under its own keys, the leader's
  // record and the stream of leaders (election_ops/).
  std::shared_ptr<ElectionOps> election(const std::string& name) override;

 private:
  const std::shared_ptr<Client> client_;
};

}  // namespace dlock
