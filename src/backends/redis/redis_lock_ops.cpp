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

bool RedisLockOps::release(const std::string& owner_field, const std::string& request_id, int64_t latch_ms) {
  return core_.execute(resource_->name(), [&](Connection& connection) {
    return resource_->release(connection, owner_field, request_id, latch_ms);
  });
}

LockOps::Extension RedisLockOps::extend(const std::string& owner_field, int64_t lease_ms) {
  const std::string lease = std::to_string(lease_ms);
  Extension extension{};
  extension.still_owned = core_.execute(resource_->name(), [&](Connection& connection) {
    extension.sent_at = Clock::now();
    return resource_->renewal_script()
        .run(connection, resource_->renewal_keys(), {lease, owner_field})
        .integer_is_one("extend '" + resource_->name() + "'");
  });
  return extension;
}

bool RedisLockOps::force_release() {
  return core_.execute(resource_->name(), [&](Connection& connection) { return resource_->force_release(connection); });
}

bool RedisLockOps::is_locked() {
  return core_.execute(resource_->name(), [&](Connection& connection) { return resource_->is_locked(connection); });
}

int64_t RedisLockOps::ttl_ms() {
  return core_.execute(resource_->name(), [&](Connection& connection) { return resource_->ttl_ms(connection); });
}

}  // namespace dlock
