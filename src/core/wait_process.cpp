#include "core/wait_process.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/log.hpp"

namespace dlock {
namespace {

// Stands for "no deadline" (wait_ms -1) without overflowing the clock's arithmetic.
constexpr auto far_future = std::chrono::hours(24 * 366);

// A wait this long is worth a log record (info): the primitive is contended.
constexpr auto long_wait = std::chrono::seconds(10);

}  // namespace

WaitProcess::WaitProcess(std::shared_ptr<WaitAttempts> attempts, WaitSpec spec)
    : attempts_(std::move(attempts)), spec_(std::move(spec)) {}

WaitProcess::~WaitProcess() {
  if (started_) stop(false);
}

WaitProcess::Step WaitProcess::step() {
  // A finished wait leaves the channels and the cancel token before its
  // caller hears of it: the caller may free the token at once.
  try {
    return started_ ? next_step() : first_step();
  } catch (...) {
    stop(false);
    throw;
  }
}

bool WaitProcess::run() {
  for (;;) {
    const Step next = step();
    if (next.done) return next.granted;
    sleep_until(next.wake_at);
  }
}

WaitProcess::Step WaitProcess::first_step() {
  started_ = true;
  attempts_->throw_if_closed();
  started_at_ = Clock::now();
  deadline_ = started_at_ + (spec_.wait_ms < 0 ? far_future : std::chrono::milliseconds(spec_.wait_ms));
  const WaitAttempts::Outcome first = attempts_->attempt(spec_.wait_ms, false);
  if (first.granted) return finished(true);
  if (spec_.wait_ms == 0) {
    attempts_->ran_out();
    return finished(false);
  }
  if (spec_.stats != nullptr) ClientStats::count(spec_.stats->waits);
  waiting_ = true;
  if (spec_.cancel != nullptr) spec_.cancel->attach(&waiter_);
  hint_ = first.retry_after;
  attempts_->watch(waiter_);
  return waiting();
}

WaitProcess::Step WaitProcess::next_step() {
  const Waiter::Signal signal = waiter_.take_signal();
  if (cancelled()) throw InterruptedError(spec_.what + ": cancelled");
  attempts_->throw_if_closed();
  const Clock::time_point now = Clock::now();
  if (signal.came && !retry_at_) {
    retry_at_ = std::min(deadline_, now + attempts_->pause_before_retry());
    retry_by_release_ = signal.by_release;
  }
  if (retry_at_) {
    if (now < *retry_at_) return {false, false, *retry_at_};
    return attempt(now, retry_by_release_);
  }
  if (now < wake_at_) return {false, false, wake_at_};  // news for another
  if (now >= deadline_) {
    attempts_->ran_out();
    return finished(false);
  }
  return attempt(now, false);  // the last try's hint came due
}

WaitProcess::Step WaitProcess::attempt(Clock::time_point now, bool by_message) {
  retry_at_.reset();
  const WaitAttempts::Outcome outcome = attempts_->attempt(wait_left_ms(now), by_message);
  if (outcome.granted) {
    count_wait(by_message);
    return finished(true);
  }
  hint_ = outcome.retry_after;
  attempts_->watch(waiter_);
  return waiting();
}

// Until the wait ends, or the attempt's hint comes due (a crashed holder
// publishes nothing).
WaitProcess::Step WaitProcess::waiting() {
  wake_at_ = deadline_;
  if (hint_) wake_at_ = std::min(wake_at_, Clock::now() + *hint_);
  return {false, false, wake_at_};
}

WaitProcess::Step WaitProcess::finished(bool granted) {
  stop(granted);
  return {true, granted, {}};
}

void WaitProcess::stop(bool granted) noexcept {
  if (stopped_) return;
  stopped_ = true;
  if (waiting_ && spec_.cancel != nullptr) spec_.cancel->detach();
  attempts_->stop(granted);
}

int64_t WaitProcess::wait_left_ms(Clock::time_point now) const {
  if (spec_.wait_ms < 0) return -1;
  // At least 1: a retry is a waiter's, whose wait may end any moment now.
  return std::max<int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count());
}

void WaitProcess::count_wait(bool by_release) const {
  if (spec_.stats == nullptr) return;
  const auto waited = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started_at_);
  spec_.stats->wait_times.record(waited);
  if (by_release) ClientStats::count(spec_.stats->handoffs);
  if (waited >= long_wait && log::enabled(DLOCK_LOG_INFO)) {
    log::emit(DLOCK_LOG_INFO, spec_.what + ": granted after waiting " + std::to_string(waited.count() / 1000) + " ms");
  }
}

void WaitProcess::sleep_until(Clock::time_point wake_at) {
  std::unique_lock<std::mutex> lock(waiter_.mutex);
  waiter_.wake.wait_until(lock, wake_at, [&] { return waiter_.signalled || attempts_->closed() || cancelled(); });
}

void submit_wait(AsyncRunner& runner, std::shared_ptr<WaitProcess> process, WaitDone done) {
  Waiter* waiter = &process->waiter();
  runner.submit(
      [process, done = std::move(done)]() -> std::optional<Clock::time_point> {
        try {
          const WaitProcess::Step next = process->step();
          if (!next.done) return next.wake_at;
          done(next.granted, nullptr);
        } catch (...) {
          done(false, std::current_exception());
        }
        return std::nullopt;
      },
      waiter);
}

}  // namespace dlock
