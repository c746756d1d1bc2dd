#include "primitives/lock/acquire_process.hpp"

namespace dlock {

AcquireProcess::AcquireProcess(ReentrantLock lock, AcquireRequest request)
    : lock_(std::move(lock)), request_(std::move(request)) {}

WaitSpec AcquireProcess::spec() const {
  return {request_.wait_ms, request_.cancel, &lock_.core_.stats(), "acquire '" + lock_.name() + "'"};
}

WaitAttempts::Outcome AcquireProcess::attempt(int64_t wait_left_ms, bool /*woken_by_message*/) {
  const bool first = !started_;
  if (first) start();
  // Before the attempt: what the channel has heard when it is refused
  // decides whether the registration must make it try again.
  if (!registration_ && request_.wait_ms != 0) hearing_ = lock_.core_.subscriber().hearing(channel_);
  // An attempt before a wait (dlock_lock_try_before_wait_owner) is a waiter's
  // whose wait may end any moment now: it respects the waiters' turn.
  last_ = lock_.attempt(request_, field_, lease_ms_, first && request_.before_wait ? 1 : wait_left_ms);
  if (last_.granted) return granted();
  // Until the holder's lease ends: a crashed holder publishes nothing.
  if (last_.value >= 0) return {false, std::chrono::milliseconds(last_.value)};
  return {false, std::nullopt};
}

void AcquireProcess::start() {
  started_ = true;
  ClientCore& core = lock_.core_;
  lock_.settle_pending(request_.owner);
  field_ = lock_.resource_->hold_field(core.field(request_.owner));
  lease_ms_ = request_.lease_ms < 0 ? core.config().watchdog_timeout_ms : request_.lease_ms;
  channel_ = lock_.resource_->wake_channel(field_);
}

AcquireProcess::Outcome AcquireProcess::granted() {
  token_ = lock_.record_grant(request_, field_, lease_ms_, last_);
  return {true, std::nullopt};
}

void AcquireProcess::watch(Waiter& waiter) {
  if (registration_) return;
  ClientCore& core = lock_.core_;
  waiter.wakes_all = std::string(lock_.resource_->wake_all_message());
  waiter.turn_number = last_.turn_number;
  registration_.emplace(core.subscriber(), channel_, waiter, hearing_);
  if (const ServerQueue* queue = lock_.resource_->server_queue()) {
    // A release by another kind of lock on the name (Redisson's RLock, say)
    // knows nothing of the queue; its message on the lock's channel makes
    // one waiter try, and that attempt grants the head.
    if (channel_ != lock_.resource_->channel())
      other_releases_.emplace(core.subscriber(), lock_.resource_->channel(), waiter);
    queued_ = true;
    heartbeat_.emplace(core.wait_heartbeat(), std::shared_ptr<const ServerQueue>(lock_.resource_, queue),
                       field_, waiter);
  }
}

void AcquireProcess::stop(bool granted) noexcept {
  heartbeat_.reset();
  other_releases_.reset();
  registration_.reset();
  if (queued_ && !granted) lock_.leave_queue(field_);
  queued_ = false;
}

}  // namespace dlock
