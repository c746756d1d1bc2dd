#include "core/stats.hpp"

#include <algorithm>
#include <cmath>

namespace dlock {
namespace {

constexpr int sub_bucket_bits = 2;  // log2(WaitHistogram::sub_buckets)
static_assert(1 << sub_bucket_bits == WaitHistogram::sub_buckets);

uint64_t load(const std::atomic<uint64_t>& counter) {
  return counter.load(std::memory_order_relaxed);
}

}  // namespace

// Values below 4 have a bucket each; a value with highest bit e >= 2 goes to
// the octave's bucket 4 * (e - 1) plus its next two bits: 4..7 -> 4..7,
// 8..15 -> 8..11 (two values each), and so on up to bucket 251.
int WaitHistogram::bucket_of(uint64_t us) noexcept {
  if (us < sub_buckets) return static_cast<int>(us);
  const int exponent = 63 - __builtin_clzll(us);
  const int sub = static_cast<int>((us >> (exponent - sub_bucket_bits)) & (sub_buckets - 1));
  return sub_buckets * (exponent - 1) + sub;
}

uint64_t WaitHistogram::bucket_upper_bound(int bucket) noexcept {
  if (bucket < sub_buckets) return static_cast<uint64_t>(bucket);
  const int exponent = bucket / sub_buckets + 1;
  const uint64_t sub = static_cast<uint64_t>(bucket % sub_buckets);
  const uint64_t width = uint64_t{1} << (exponent - sub_bucket_bits);
  return (uint64_t{1} << exponent) + (sub + 1) * width - 1;
}

void WaitHistogram::record(std::chrono::microseconds duration) noexcept {
  const int64_t us = std::max<int64_t>(0, duration.count());
  counts_[bucket_of(static_cast<uint64_t>(us))].fetch_add(1, std::memory_order_relaxed);
  int64_t seen = max_us_.load(std::memory_order_relaxed);
  while (us > seen && !max_us_.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
  }
}

int64_t WaitHistogram::percentile_us(double p) const noexcept {
  std::array<uint64_t, bucket_count> counts;
  uint64_t total = 0;
  for (int i = 0; i < bucket_count; ++i) total += counts[i] = load(counts_[i]);
  if (total == 0) return 0;
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * static_cast<double>(total))));
  uint64_t seen = 0;
  int bucket = 0;
  for (; bucket < bucket_count - 1; ++bucket) {
    seen += counts[bucket];
    if (seen >= rank) break;
  }
  return std::min(static_cast<int64_t>(bucket_upper_bound(bucket)), max_us());
}

}  // namespace dlock
