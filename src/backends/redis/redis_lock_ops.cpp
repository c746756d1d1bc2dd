#include "backends/redis/redis_lock_ops.hpp"

#include "backends/redis/channel_watch.hpp"
#include "backends/redis/lock_ops/holder_note.hpp"
#include "backends/redis/lock_ops/lock_inspection.hpp"
#include "backends/redis/lock_ops/lock_resource.hpp"
#include "backends/redis/redis_lock_wait.hpp"
#include "backends/redis/redis_session.hpp"
#include "backends/redis/redis_settle.hpp"

namespace dlock {
namespace {

// Keeps the core (and so its subscriber) alive as long as the watch.
struct CoreChannelWatch final : WaitWatch {
  CoreChannelWatch(std::shared_ptr<ClientCore> core, const std::string& channel, Waiter& waiter)
      : core_(std::move(core)), watch_(redis_session(*core_).subscriber(), channel, waiter) {}

  std::shared_ptr<ClientCore> core_;
  ChannelWatch watch_;
};

}  // namespace

std::unique_ptr<LockWait> RedisLockOps::begin(const std::string& owner_field, int64_t lease_ms) {
  // The client keeps its cores: the one returned outlives the wait.
  return std::make_unique<RedisLockWait>(*client_->core(), resource_, owner_field, lease_ms);
}

std::unique_ptr<WaitWatch> RedisLockOps::watch_releases(Waiter& waiter) {
  return std::make_unique<CoreChannelWatch>(client_->core(), resource_->channel(), waiter);
}

bool RedisLockOps::release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) {
  return settle_release(grant, request_id, latch_ms)(std::nullopt) != 0;
}

Settle RedisLockOps::settle_release(const GrantRef& grant, const std::string& request_id, int64_t latch_ms) {
  return redis_settle(
      *client_->core(), resource_->name(),
      [resource = resource_, owner_field = grant.owner_field, request_id, latch_ms](Connection& connection) {
        return int64_t{resource->release(connection, owner_field, request_id, latch_ms)};
      });
}

LockOps::Extension RedisLockOps::extend(const GrantRef& grant, int64_t lease_ms) {
  const std::string lease = std::to_string(lease_ms);
  Extension extension{};
  extension.still_owned =
      redis_session(*client_->core()).execute(resource_->name(), [&](Connection& connection) {
        extension.sent_at = Clock::now();
        return resource_->renewal_script()
            .run(connection, resource_->renewal_keys(), {lease, grant.owner_field})
            .integer_is_one("extend '" + resource_->name() + "'");
      });
  return extension;
}

bool RedisLockOps::keeps() const {
  return dynamic_cast<const LockResource*>(resource_.get()) != nullptr;
}

bool RedisLockOps::release_keeping(const GrantRef& grant, int64_t keep_ms) {
  const auto& lock = dynamic_cast<const LockResource&>(*resource_);
  return redis_session(*client_->core()).execute(resource_->name(), [&](Connection& connection) {
    return lock.keep(connection, grant.owner_field, keep_ms);
  });
}

bool RedisLockOps::force_release() {
  return redis_session(*client_->core()).execute(resource_->name(), [&](Connection& connection) {
    return resource_->force_release(connection);
  });
}

bool RedisLockOps::is_locked() {
  return redis_session(*client_->core()).execute(resource_->name(), [&](Connection& connection) {
    return resource_->is_locked(connection);
  });
}

int64_t RedisLockOps::ttl_ms() {
  return redis_session(*client_->core()).execute(resource_->name(), [&](Connection& connection) {
    return resource_->ttl_ms(connection);
  });
}

const LockKeys* RedisLockOps::plain_keys() const {
  const auto* lock = dynamic_cast<const LockResource*>(resource_.get());
  return lock != nullptr ? &lock->keys : nullptr;
}

LockInspection RedisLockOps::inspect() {
  const LockKeys* keys = plain_keys();
  if (keys == nullptr) return LockOps::inspect();
  return inspect_lock(*client_->core(), *keys);
}

bool RedisLockOps::note_holder(const std::string& field, const std::string& note) {
  const LockKeys* keys = plain_keys();
  if (keys == nullptr) return LockOps::note_holder(field, note);
  return dlock::note_holder(*client_->core(), *keys, field, note);
}

std::optional<HolderNote> RedisLockOps::holder_note() {
  const LockKeys* keys = plain_keys();
  if (keys == nullptr) return LockOps::holder_note();
  return read_holder_note(*client_->core(), *keys);
}

}  // namespace dlock
