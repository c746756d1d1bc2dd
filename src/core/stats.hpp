// A client's counters (what dlock_client_stats reports). Counting is always on, so it must
// cost next to nothing: relaxed atomic increments, and the wait times in a
// fixed log-scale histogram of atomics (no lock, no allocation).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace dlock {

// Durations in microseconds, bucketed HdrHistogram-like: exact below 4 us,
// then 4 sub-buckets per power of two, so a percentile read back is within
// 25% of the true value (reported as its bucket's upper bound, capped at the
// largest value seen).
class WaitHistogram {
 public:
  static constexpr int sub_buckets = 4;
  static constexpr int bucket_count = 64 * sub_buckets;

  void record(std::chrono::microseconds duration) noexcept;
  // p in (0, 1]; 0 when nothing was recorded.
  int64_t percentile_us(double p) const noexcept;
  int64_t max_us() const noexcept { return max_us_.load(std::memory_order_relaxed); }

  static int bucket_of(uint64_t us) noexcept;
  static uint64_t bucket_upper_bound(int bucket) noexcept;

 private:
  std::array<std::atomic<uint64_t>, bucket_count> counts_{};
  std::atomic<int64_t> max_us_{0};
};

class ClientStats {
 public:
  static void count(std::atomic<uint64_t>& counter, uint64_t n = 1) noexcept {
    counter.fetch_add(n, std::memory_order_relaxed);
  }

  std::atomic<uint64_t> grants{0};
  std::atomic<uint64_t> reentries{0};
  std::atomic<uint64_t> waits{0};
  std::atomic<uint64_t> handoffs{0};
  std::atomic<uint64_t> renewals{0};
  std::atomic<uint64_t> renewal_round_trips{0};
  std::atomic<uint64_t> locks_lost{0};
  std::atomic<uint64_t> reconnects{0};  // the subscriber's; the pool counts its own
  std::atomic<uint64_t> transient_retries{0};
  std::atomic<uint64_t> failovers{0};  // Sentinel: master moves followed
  std::atomic<uint64_t> expiries{0};   // fixed leases that ran out as asked (not losses)
  WaitHistogram wait_times;            // acquires that waited and were granted
};

}  // namespace dlock
