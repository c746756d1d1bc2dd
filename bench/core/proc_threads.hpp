// The process's threads as /proc/self/task lists them.
#pragma once

#include <set>

namespace dlock_bench {

std::set<int> thread_ids();

}  // namespace dlock_bench
