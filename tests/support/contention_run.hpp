#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "fenced_store.hpp"
#include "section_log.hpp"
#include "temp_dir.hpp"

namespace dlock_test {

struct ContentionSetup {
  std::string url;
  std::string name = "contended";
  // "lock", "fair", "mixed" (fair and reentrant in alternate processes) or
  // "read-write" (each cycle a read or a write of the read-write lock).
  std::string kind = "lock";
  int processes = 4;
  int threads = 2;
  int cycles = 50;
  int64_t lease_ms = -1;
  int64_t watchdog_timeout_ms = 0;
  int64_t min_sleep_us = 0;
  int64_t max_sleep_us = 2000;
};

// Worker processes in cycles mode contending for one lock, sharing a section log
// and a fenced store in a directory of their own.
class ContentionRun {
 public:
  explicit ContentionRun(const ContentionSetup& setup);

  // Waits for every worker; "" when all exited 0, else each failure with its output.
  std::string wait(std::chrono::milliseconds timeout);
  std::vector<Section> sections() const { return SectionLog::read(dir_.file("sections")); }
  FencedStoreState store() const { return FencedStore(dir_.file("store")).state(); }

 private:
  TempDir dir_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
};

}  // namespace dlock_test
