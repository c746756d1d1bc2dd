#include "stats_cost.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "borrowed.hpp"
#include "core/stats.hpp"

namespace dlock_bench {
namespace {

constexpr int runs = 9;
constexpr int64_t grants_per_run = 2000000;

}  // namespace

double stats_counting_ns_per_grant() {
  dlock::ClientStats stats;
  std::vector<double> per_grant;
  for (int run = 0; run < runs; ++run) {
    const int64_t start = monotonic_ns();
    for (int64_t i = 0; i < grants_per_run; ++i) {
      // What ReentrantLock counts for a grant that waited and was handed the lock.
      dlock::ClientStats::count(stats.waits);
      stats.wait_times.record(std::chrono::microseconds(i & 0xfffff));
      dlock::ClientStats::count(stats.handoffs);
      dlock::ClientStats::count(stats.grants);
    }
    per_grant.push_back(static_cast<double>(monotonic_ns() - start) / grants_per_run);
  }
  if (stats.grants.load() != runs * grants_per_run) return -1;  // keeps the loop's work observable
  std::sort(per_grant.begin(), per_grant.end());
  return per_grant[runs / 2];
}

}  // namespace dlock_bench
