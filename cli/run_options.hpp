// The options of `dlock run [options] NAME [--] COMMAND [ARGS...]`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "exit_codes.hpp"

namespace dlock_cli {

// Once the hold is lost, SIGTERM to SIGKILL (--grace).
constexpr int64_t default_grace_ms = 10000;

struct RunOptions {
  std::string url;
  std::string name;
  std::vector<std::string> command;
  int64_t wait_ms = -1;      // -1 forever, 0 one attempt (--nonblock)
  int64_t lease_ms = 0;      // watchdog lease; 0 for the library's default
  int64_t grace_ms = default_grace_ms;
  int conflict_exit_code = exit_code::not_acquired;
  int64_t hold_after_success_ms = 0;  // 0: release at once whatever the outcome
  int64_t max_attempts = 0;           // 0: no limit
  int permits = 0;                    // --permits N: hold one of N leased permits of NAME instead of the lock
};

RunOptions parse_run_options(Arguments& args);

}  // namespace dlock_cli
