// Uncontended acquire+release pairs per second of one contender: what the
// backend benchmarks (zk_bench, sql_bench) compare across locks.
#pragma once

#include <cstdint>
#include <functional>

#include "monotonic_clock.hpp"

namespace dlock_bench {

// Runs `pair` (one acquire and its release) for `warmup_ms`, then counts it
// for `run_ms` and returns the rate.
inline double pairs_per_second(const std::function<void()>& pair, int warmup_ms, int run_ms) {
  const auto loop_until = [&](int64_t end_ns) {
    int64_t count = 0;
    while (dlock_test::monotonic_ns() < end_ns) {
      pair();
      ++count;
    }
    return count;
  };
  loop_until(dlock_test::monotonic_ns() + int64_t{warmup_ms} * 1000000);
  const int64_t start = dlock_test::monotonic_ns();
  const int64_t count = loop_until(start + int64_t{run_ms} * 1000000);
  return static_cast<double>(count) * 1e9 / static_cast<double>(dlock_test::monotonic_ns() - start);
}

}  // namespace dlock_bench
