#pragma once

#include <cstdint>
#include <ctime>

namespace dlock_test {

// CLOCK_MONOTONIC is host-wide, so readings from different processes compare directly.
inline int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

inline int64_t monotonic_ms() { return monotonic_ns() / 1000000; }

inline int64_t ms_between(int64_t from_ns, int64_t to_ns) { return (to_ns - from_ns) / 1000000; }

}  // namespace dlock_test
