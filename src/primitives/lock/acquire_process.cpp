#include "primitives/lock/acquire_process.hpp"

#include <algorithm>
#include <chrono>

#include "common/error.hpp"

namespace dlock {
namespace {

// Stands for "no deadline" without overflowing the clock's arithmetic.
constexpr auto far_future = std::chrono::hours(24 * 366);

}  // namespace

AcquireProcess::Step AcquireProcess::first_step() {
  started_ = true;
  ClientCore& core = lock_.core_;
  core.throw_if_closed();
  lock_.settle_pending_release(request_.owner);
  if (std::optional<uint64_t> token = core.holds().reenter(lock_.hold_key(), request_.owner)) {
    ClientStats::count(core.stats().reentries);
    return {true, token, {}};
  }
  started_at_ = Clock::now();
  deadline_ = started_at_ + (request_.wait_ms < 0 ? far_future : std::chrono::milliseconds(request_.wait_ms));
  field_ = lock_.resource_->hold_field(core.field(request_.owner));
  lease_ms_ = request_.lease_ms < 0 ? core.config().watchdog_timeout_ms : request_.lease_ms;
  // An attempt before a wait is a waiter's whose wait may end any moment now.
  last_ = lock_.attempt(request_, field_, lease_ms_, request_.before_wait ? 1 : request_.wait_ms);
  if (last_.granted) return granted(last_);
  if (request_.wait_ms == 0) return {true, std::nullopt, {}};
  ClientStats::count(core.stats().waits);
  // Subscribed before the next attempt, which the confirmation triggers: a
  // release in between is not missed.
  channel_ = lock_.resource_->wake_channel(field_);
  waiter_.turn_number = last_.turn_number;
  registration_.emplace(core.subscriber(), channel_, waiter_, request_.cancel);
  if (const ServerQueue* queue = lock_.resource_->server_queue()) {
    if (channel_ != lock_.resource_->channel()) {
      // A release by another kind of lock on the name (Redisson's RLock, say)
      // knows nothing of the queue; its message on the lock's channel makes
      // one waiter try, and that attempt grants the head.
      other_releases_.emplace(core.subscriber(), lock_.resource_->channel(), waiter_, nullptr);
    }
    queued_ = true;
    heartbeat_.emplace(core.wait_heartbeat(), std::shared_ptr<const ServerQueue>(lock_.resource_, queue),
                       field_, waiter_);
  }
  return waiting();
}

void AcquireProcess::stop_waiting(bool granted) {
  heartbeat_.reset();
  other_releases_.reset();
  registration_.reset();
  if (queued_ && !granted) lock_.leave_queue(field_);
  queued_ = false;
}

AcquireProcess::Step AcquireProcess::step() {
  // A finished acquire leaves the subscriber and the cancel token before its
  // caller hears of it: the caller may free the token at once.
  try {
    Step step = started_ ? next_step() : first_step();
    if (step.done) stop_waiting(step.token.has_value());
    return step;
  } catch (...) {
    stop_waiting(false);
    throw;
  }
}

AcquireProcess::Step AcquireProcess::next_step() {
  const Waiter::Signal signal = waiter_.take_signal();
  const bool signalled = signal.came;
  if (request_.cancel != nullptr && request_.cancel->triggered()) {
    throw InterruptedError("acquire '" + lock_.name() + "': cancelled");
  }
  lock_.core_.throw_if_closed();
  const Clock::time_point now = Clock::now();
  if (!signalled && now < wake_at_) return {false, std::nullopt, wake_at_};  // news for another
  if (!signalled && now >= deadline_) return {true, std::nullopt, {}};
  last_ = lock_.attempt(request_, field_, lease_ms_, wait_left_ms(now));
  if (!last_.granted) return waiting();
  lock_.count_wait(started_at_, signal.by_release);
  return granted(last_);
}

int64_t AcquireProcess::wait_left_ms(Clock::time_point now) const {
  if (request_.wait_ms < 0) return -1;
  // At least 1: a retry is a waiter's, whose wait may end any moment now.
  return std::max<int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count());
}

AcquireProcess::Step AcquireProcess::granted(const ReentrantLock::Attempt& grant) {
  return {true, lock_.record_grant(request_, field_, lease_ms_, grant), {}};
}

// Until the wait ends, or the holder's lease does (a crashed holder
// publishes nothing).
AcquireProcess::Step AcquireProcess::waiting() {
  wake_at_ = deadline_;
  if (last_.value >= 0) wake_at_ = std::min(wake_at_, Clock::now() + std::chrono::milliseconds(last_.value));
  return {false, std::nullopt, wake_at_};
}

void AcquireProcess::sleep_until(Clock::time_point wake_at) {
  std::unique_lock<std::mutex> lock(waiter_.mutex);
  waiter_.wake.wait_until(lock, wake_at, [&] {
    return waiter_.signalled || lock_.core_.closed() || (request_.cancel && request_.cancel->triggered());
  });
}

}  // namespace dlock
