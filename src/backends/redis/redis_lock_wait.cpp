#include "backends/redis/redis_lock_wait.hpp"

#include "backends/redis/redis_session.hpp"
#include "common/log.hpp"

namespace dlock {

RedisLockWait::RedisLockWait(ClientCore& core, std::shared_ptr<const Lockable> resource, std::string field,
                             int64_t lease_ms)
    : core_(core),
      resource_(std::move(resource)),
      field_(std::move(field)),
      lease_ms_(lease_ms),
      channel_(resource_->wake_channel(field_)) {}

LockWait::Try RedisLockWait::attempt(int64_t wait_left_ms, bool /*woken_by_message*/) {
  // Before the try: what the channel has heard when it is refused decides
  // whether the registration must make it try again.
  if (!registration_) hearing_ = redis_session(core_).subscriber().hearing(channel_);
  const std::string request_id = core_.request_id();
  return redis_session(core_).execute(resource_->name(), [&](Connection& connection) {
    Try outcome;
    outcome.sent_at = Clock::now();
    const Lockable::Attempt answer =
        resource_->attempt(connection, field_, lease_ms_, wait_left_ms, request_id);
    if (answer.granted && confirm_replicated(connection)) {
      outcome.granted = true;
      outcome.token = static_cast<uint64_t>(answer.value);
      return outcome;
    }
    // Undone by replica sync: retried like a busy lock whose holder has this long left.
    const int64_t holder_ttl_ms = answer.granted ? core_.config().sync_timeout_ms : answer.value;
    if (holder_ttl_ms >= 0) outcome.retry_after = std::chrono::milliseconds(holder_ttl_ms);
    turn_number_ = answer.turn_number;
    return outcome;
  });
}

bool RedisLockWait::confirm_replicated(Connection& connection) {
  const ClientConfig& config = core_.config();
  if (config.sync_replicas == 0) return true;
  const std::string wanted = std::to_string(config.sync_replicas);
  const int64_t reached =
      connection.command({"WAIT", wanted, std::to_string(config.sync_timeout_ms)}).integer("WAIT " + wanted);
  if (reached >= config.sync_replicas) return true;
  resource_->release(connection, field_, core_.request_id(), lease_ms_ + core_.retry_window_ms());
  if (log::enabled(DLOCK_LOG_DEBUG)) {
    log::emit(DLOCK_LOG_DEBUG, "acquire '" + resource_->name() + "': the grant reached " +
                                   std::to_string(reached) + " of " + wanted + " replicas within " +
                                   std::to_string(config.sync_timeout_ms) + " ms; undone");
  }
  return false;
}

void RedisLockWait::watch(Waiter& waiter) {
  if (registration_) return;
  waiter.wakes_all = std::string(resource_->wake_all_message());
  waiter.turn_number = turn_number_;
  registration_.emplace(redis_session(core_).subscriber(), channel_, waiter, hearing_);
  if (const ServerQueue* queue = resource_->server_queue()) {
    // A release by another kind of lock on the name (Redisson's RLock, say)
    // knows nothing of the queue; its message on the lock's channel makes
    // one waiter try, and that attempt grants the head.
    if (channel_ != resource_->channel())
      other_releases_.emplace(redis_session(core_).subscriber(), resource_->channel(), waiter);
    queued_ = true;
    heartbeat_.emplace(redis_session(core_).wait_heartbeat(),
                       std::shared_ptr<const ServerQueue>(resource_, queue), field_, waiter);
  }
}

void RedisLockWait::abandon() noexcept {
  heartbeat_.reset();
  other_releases_.reset();
  registration_.reset();
  if (!queued_) return;
  queued_ = false;
  // Sent by the heartbeat's thread, so that giving up never waits on the network.
  redis_session(core_).wait_heartbeat().leave(
      std::shared_ptr<const ServerQueue>(resource_, resource_->server_queue()), field_);
}

}  // namespace dlock
