#include "backends/redis/redis_backend.hpp"

#include "backends/redis/election_ops/redis_election_ops.hpp"
#include "backends/redis/fair_lock_ops/fair_lock_resource.hpp"
#include "backends/redis/lock_listing.hpp"
#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/lock_ops/nonreentrant_lock_resource.hpp"
#include "backends/redis/redis_lock_ops.hpp"
#include "backends/redis/rwlock_ops/rwlock_resource.hpp"
#include "common/error.hpp"

namespace dlock {
namespace {

std::shared_ptr<const Lockable> resource_of(const std::string& name, LockKind kind, const ClientConfig& config) {
  switch (kind) {
    case LockKind::reentrant:
      return std::make_shared<const LockResource>(name, config);
    case LockKind::nonreentrant:
      return std::make_shared<const NonReentrantLockResource>(name, config);
    case LockKind::fair:
      return std::make_shared<const FairLockResource>(name, config);
    case LockKind::read:
      return std::make_shared<const ReadSide>(name, config);
    case LockKind::write:
      return std::make_shared<const WriteSide>(name, config);
  }
  throw UnsupportedError("lock '" + name + "': a lock kind the redis backend does not know");
}

}  // namespace

std::shared_ptr<LockOps> RedisBackend::lock(const std::string& name, LockKind kind) {
  return std::make_shared<RedisLockOps>(client_, resource_of(name, kind, client_->core()->config()),
                                        kind != LockKind::nonreentrant);
}

std::shared_ptr<PermitLeases> RedisBackend::permit_leases(const std::string& /*name*/) {
  client_->core();  // ClosedError for a closed client
  return nullptr;
}

std::shared_ptr<ElectionOps> RedisBackend::election(const std::string& name) {
  return std::make_shared<RedisElectionOps>(client_, name);
}

std::vector<std::string> RedisBackend::list_locks(const std::string& prefix) {
  return list_lock_names(*client_->core(), prefix);
}

}  // namespace dlock
