// The host's cost of waking a sleeping process: a floor under every
// cross-process hand-off, whatever the lock, printed beside it.
#pragma once

#include <cstdint>

namespace dlock_bench {

// Median time from a write(2) into a pipe to the return of the read(2) a
// sleeping child process was blocked in, over `samples` wake-ups. Both
// processes are pinned to one CPU, or with `cross_cpu` (and two CPUs
// allowed) to two different ones, as the processes of a hand-off on a small
// host mostly are.
int64_t process_wakeup_ns(int samples, bool cross_cpu);

}  // namespace dlock_bench
