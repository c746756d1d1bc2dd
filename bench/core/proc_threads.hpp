// The process's threads as /proc/self/task lists them, and the system calls
// each has made (/proc/self/task/<tid>/io), to attribute work to a client's
// background threads.
#pragma once

#include <cstdint>
#include <set>

namespace dlock_bench {

std::set<int> thread_ids();

struct SyscallCounts {
  int64_t reads = 0;   // syscr: read(2)-family calls
  int64_t writes = 0;  // syscw: write(2)-family calls
};

// Summed over `threads` (threads that have ended count nothing).
SyscallCounts syscalls_of(const std::set<int>& threads);

}  // namespace dlock_bench
