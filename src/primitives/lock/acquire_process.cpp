#include "primitives/lock/acquire_process.hpp"

#include "common/error.hpp"

namespace dlock {

AcquireProcess::AcquireProcess(ReentrantLock lock, AcquireRequest request)
    : lock_(std::move(lock)), request_(std::move(request)) {
  // The asynchronous acquire and a group's member start here, not in acquire().
  lock_.check_lease(request_.lease_ms);
}

WaitSpec AcquireProcess::spec() const {
  return {request_.wait_ms, request_.cancel, &lock_.core_.stats(), "acquire '" + lock_.name() + "'"};
}

WaitAttempts::Outcome AcquireProcess::attempt(int64_t wait_left_ms, bool woken_by_message) {
  const bool first = !wait_;
  if (first) start();
  try {
    // An attempt before a wait (dlock_lock_try_before_wait_owner) is a
    // waiter's whose wait may end any moment now: it respects the waiters' turn.
    last_ = wait_->attempt(first && request_.before_wait ? 1 : wait_left_ms, woken_by_message);
  } catch (const ConnectionError&) {
    lock_.withdraw(request_, field_, lease_ms_);
    throw;
  }
  if (!last_.granted) return {false, last_.retry_after};
  token_ = lock_.record_grant(request_, field_, lease_ms_, last_);
  return {true, std::nullopt};
}

void AcquireProcess::start() {
  ClientCore& core = lock_.core_;
  lock_.settle_pending(request_.owner);
  field_ = lock_.ops_->hold_field(core.field(request_.owner));
  lease_ms_ = request_.lease_ms < 0 ? core.config().watchdog_timeout_ms : request_.lease_ms;
  wait_ = lock_.ops_->begin(field_, lease_ms_);
}

void AcquireProcess::watch(Waiter& waiter) { wait_->watch(waiter); }

void AcquireProcess::stop(bool granted) noexcept {
  if (!wait_) return;
  if (!granted) wait_->abandon();
  wait_.reset();
}

}  // namespace dlock
