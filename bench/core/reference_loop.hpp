// A reference library's uncontended loop run in its own process (Curator's
// for zk_bench, ShedLock's for sql_bench), which prints one line "pairs
// COUNT ELAPSED_NS" when it is done.
#pragma once

#include <string>
#include <vector>

namespace dlock_bench {

// Runs `argv` with its output in `output_path`, waiting up to `timeout_ms`,
// and returns the pairs per second it printed; throws naming `who` with the
// program's output when it failed or printed no such line.
double reference_pairs_per_second(const std::vector<std::string>& argv, const std::string& output_path,
                                  int timeout_ms, const std::string& who);

}  // namespace dlock_bench
