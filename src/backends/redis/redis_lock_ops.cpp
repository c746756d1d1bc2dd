#include "backends/redis/redis_lock_ops.hpp"

#include "backends/redis/channel_watch.hpp"
#include "backends/redis/redis_lock_wait.hpp"

namespace dlock {

std::unique_ptr<LockWait> RedisLockOps::begin(const std::string& owner_field, int64_t lease_ms) {
  return std::make_unique<RedisLockWait>(core_, resource_, owner_field, lease_ms);
}

std::unique_ptr<WaitWatch> RedisLockOps::watch_releases(Waiter& waiter) {
  return std::make_unique<ChannelWatch>(core_.subscriber(), resource_->channel(), waiter);
}

}  // namespace dlock
