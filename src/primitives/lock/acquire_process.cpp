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
  if (lock_.held_against_reentry(request_.owner)) return {false, std::nullopt};
  own_release_.reset();
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

void AcquireProcess::watch(Waiter& waiter) {
  if (!wait_) {
    // Refused before asking the server: the owner's own hold is in the way.
    if (!own_release_) own_release_ = lock_.ops_->watch_releases(waiter);
    return;
  }
  wait_->watch(waiter);
}

void AcquireProcess::stop(bool granted) noexcept {
  own_release_.reset();
  if (!wait_) return;
  if (!granted) wait_->abandon();
  wait_.reset();
}

}  // namespace dlock
