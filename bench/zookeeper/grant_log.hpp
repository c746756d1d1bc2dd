// The grants of a contended run, as every contender (a dlock process, a
// Curator JVM) records them: one line per grant, "acquired_ns released_ns
// owner", stamped with CLOCK_MONOTONIC (System.nanoTime() on Linux), so the
// hand-offs between processes of any library are computed the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlock_zk_bench {

struct Grant {
  int64_t acquired_ns = 0;  // the acquire returned
  int64_t released_ns = 0;  // the release was about to be sent
  std::string owner;
};

// Every grant in the files named, in acquire order.
std::vector<Grant> read_grants(const std::vector<std::string>& paths);

struct Handoffs {
  std::vector<int64_t> ns;        // release begins -> another owner's acquire returns
  int64_t same_owner_again = 0;   // grants that followed their owner's own release
  int64_t overlaps = 0;           // a grant before the previous holder's release: never, for a lock
};

Handoffs handoffs(const std::vector<Grant>& grants);

}  // namespace dlock_zk_bench
