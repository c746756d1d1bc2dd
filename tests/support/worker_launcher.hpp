#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "text_file.hpp"

namespace dlock_test {

// Starts the test worker executable (tests/worker) with `arguments`, its output
// appended to `output_path`.
std::unique_ptr<ChildProcess> start_worker(const std::vector<std::string>& arguments,
                                           const std::string& output_path);

// A worker in --mode hold: it takes the lock `name` once, says "acquired
// <token>" on its output, holds it for hold_ms, writes once to the fenced
// store and releases.
struct HoldWorker {
  std::string url;
  std::string name;
  std::string store;
  std::string log;   // section log; empty: none
  std::string kind;  // --kind (fair, read, write...); empty: the reentrant lock
  int64_t hold_ms = 1000;
  std::vector<std::string> lease_arguments;  // e.g. {"--lease-ms", "10000"}
};
std::unique_ptr<ChildProcess> start_hold_worker(const HoldWorker& worker, const std::string& output_path);

// Waits until a line starting with "<key> " appears in the file and returns the
// rest of that line; nullopt on timeout.
std::optional<std::string> wait_for_output(const std::string& path, const std::string& key,
                                           std::chrono::milliseconds timeout);

// The fencing token a holder worker (--mode hold) reported once it held the
// lock; throws std::runtime_error with its output when it never did.
uint64_t wait_until_acquired(const std::string& output_path);

}  // namespace dlock_test
