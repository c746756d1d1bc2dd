// Host-wide monotonic time and the percentiles the benchmark prints.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dlock_bench {

// CLOCK_MONOTONIC is shared by every process on the host, so stamps taken in
// different processes compare directly.
inline int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// Nearest-rank percentile (p in [0, 100]) of a non-empty sample.
inline int64_t percentile(std::vector<int64_t> samples, double p) {
  std::sort(samples.begin(), samples.end());
  const auto last = static_cast<double>(samples.size() - 1);
  return samples[static_cast<std::size_t>(p / 100.0 * last + 0.5)];
}

}  // namespace dlock_bench
