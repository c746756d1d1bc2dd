// What the always-on client counters cost per grant, measured directly: the
// counting a grant after a wait does (the most any acquire does), in a tight
// loop on a ClientStats of its own.
#pragma once

#include <cstdint>

namespace dlock_bench {

// Nanoseconds of counting per grant, the median of several runs.
double stats_counting_ns_per_grant();

}  // namespace dlock_bench
