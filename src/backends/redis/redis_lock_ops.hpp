// A lock kind's operations on Redis (core/lock_ops.hpp): each a round trip
// through ClientCore::execute to the kind's Lockable, a thin adapter until
// the rest of the seam's step 5 (docs/design/backends.md, 1.5) moves the
// kinds' scripts behind it.
#pragma once

#include <memory>
#include <string>

#include "backends/redis/lockable.hpp"
#include "core/client_core.hpp"
#include "core/lock_ops.hpp"

namespace dlock {

class RedisLockOps final : public LockOps {
 public:
  RedisLockOps(ClientCore& core, std::shared_ptr<const Lockable> resource)
      : core_(core), resource_(std::move(resource)) {}

  std::unique_ptr<LockWait> begin(const std::string& owner_field, int64_t lease_ms) override;
  // The kind's release channel.
  std::unique_ptr<WaitWatch> watch_releases(Waiter& waiter) override;
  bool release(const std::string& owner_field, const std::string& request_id, int64_t latch_ms) override;
  // The kind's renewal script.
  Extension extend(const std::string& owner_field, int64_t lease_ms) override;
  bool force_release() override;
  bool is_locked() override;
  int64_t ttl_ms() override;

 private:
  ClientCore& core_;
  const std::shared_ptr<const Lockable> resource_;
};

}  // namespace dlock
