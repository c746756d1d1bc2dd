// Once-per-period jobs (dlock run --hold-after-success DUR [--max-attempts N]).
// Periods are DUR long and aligned to the Unix epoch, so every node of a fleet
// agrees on them (with 1h, a period starts on every hour, UTC). State lives in
// Redis next to the lock, through the C ABI: the lock itself, kept after a
// success until the period ends (dlock_lock_release_keeping_owner), and a
// counter of attempts that expires with the period (dlock_lock_count_attempt).
#pragma once

#include <cstdint>

#include "dlock.h"

namespace dlock_cli {

struct Period {
  int64_t start_ms;  // Unix time
  int64_t end_ms;

  static Period containing(int64_t unix_ms, int64_t length_ms);
};

int64_t unix_time_ms();

class PeriodJob {
 public:
  // The period is the one containing the present moment.
  PeriodJob(dlock_lock* lock, uint64_t owner, int64_t period_ms);

  const Period& period() const { return period_; }

  // Records one more attempt in this period: its number, or 0 when
  // `max_attempts` have already been made. Call it while holding the lock.
  int64_t record_attempt(int64_t max_attempts);

  enum class Kept { until_period_end, period_over, hold_gone };
  // Ends the hold but keeps the lock taken as a fixed lease until the period
  // ends (nothing renews it, nothing needs to release it), unless the period
  // is already over (the hold is left as it was) or the hold is gone (and
  // forgotten). Call it while holding the lock.
  Kept keep_until_period_end();

 private:
  dlock_lock* lock_;
  uint64_t owner_;
  Period period_;
};

}  // namespace dlock_cli
