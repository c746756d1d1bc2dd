#include "period_job.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "lock_session.hpp"

namespace dlock_cli {

Period Period::containing(int64_t unix_ms, int64_t length_ms) {
  const int64_t start = unix_ms - unix_ms % length_ms;
  return {start, start + length_ms};
}

int64_t unix_time_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

PeriodJob::PeriodJob(dlock_lock* lock, uint64_t owner, int64_t period_ms)
    : lock_(lock), owner_(owner), period_(Period::containing(unix_time_ms(), period_ms)) {}

int64_t PeriodJob::record_attempt(int64_t max_attempts) {
  // The counter is named by the period's start (Unix seconds) and lapses at
  // its end; a period ending this very millisecond still gets a valid expiry.
  const std::string period_id = std::to_string(period_.start_ms / 1000);
  const int64_t expire_ms = std::max<int64_t>(1, period_.end_ms - unix_time_ms());
  int64_t attempt = 0;
  const int status = dlock_lock_count_attempt(lock_, period_id.c_str(), expire_ms, max_attempts, &attempt);
  if (status == DLOCK_NOT_ACQUIRED) return 0;
  if (status != DLOCK_OK) {
    fail_with_status(status, std::string("counting the attempts at '") + dlock_lock_name(lock_) + "'");
  }
  return attempt;
}

PeriodJob::Kept PeriodJob::keep_until_period_end() {
  const int64_t keep_ms = period_.end_ms - unix_time_ms();
  if (keep_ms <= 0) return Kept::period_over;
  const int status = dlock_lock_release_keeping_owner(lock_, owner_, keep_ms);
  if (status == DLOCK_E_LOST) return Kept::hold_gone;
  if (status != DLOCK_OK) {
    fail_with_status(status, std::string("keeping '") + dlock_lock_name(lock_) + "' until the period ends");
  }
  return Kept::until_period_end;
}

}  // namespace dlock_cli
