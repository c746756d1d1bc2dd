// The percentiles the benchmark prints.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dlock_bench {

// Nearest-rank percentile (p in [0, 100]) of a non-empty sample.
inline int64_t percentile(std::vector<int64_t> samples, double p) {
  std::sort(samples.begin(), samples.end());
  const auto last = static_cast<double>(samples.size() - 1);
  return samples[static_cast<std::size_t>(p / 100.0 * last + 0.5)];
}

}  // namespace dlock_bench
