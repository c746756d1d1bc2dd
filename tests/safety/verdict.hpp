// The independent checker's judgement of one primitive under one fault, from
// the sections its workers logged (host-wide CLOCK_MONOTONIC stamps).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "plan.hpp"

namespace dlock_safety {

// Where a primitive's workers logged: `log` for most, `log`.<name> per
// guarded name for MultiLock and RedLock (tests/worker/group_loop.hpp).
struct CellLogs {
  std::vector<std::string> paths;
  int permits = 0;  // the semaphores' permit count
};

struct CellResult {
  Primitive primitive = Primitive::lock;
  Fault fault = Fault::holder_kill9;
  Expectation expected;
  std::size_t operations = 0;  // grants (latch: rounds) checked
  std::size_t violations = 0;  // breaks of the guarantee fencing did not catch
  std::size_t fenced = 0;      // overlaps whose stale write the fenced store refused
  std::size_t told_lost = 0;   // sections whose release or await returned DLOCK_E_LOST
  std::string detail;          // the checker's summary
  bool reached_target = true;  // false: the workers stalled before the planned grants

  // A violation where the project claims safety (for Claim::safe any overlap,
  // fenced or not, since nothing was meant to lapse).
  bool breaks_claim() const;
  // "ok", "VIOLATION", "flagged (expected)", ...: the report's verdict column.
  std::string verdict() const;
};

CellResult check_cell(Primitive primitive, Fault fault, const CellLogs& logs);

}  // namespace dlock_safety
