#include "run_options.hpp"

#include "duration.hpp"
#include "failure.hpp"
#include "log_output.hpp"

namespace dlock_cli {

RunOptions parse_run_options(Arguments& args) {
  RunOptions options;
  std::string value;
  while (args.at_option() && args.peek() != "--") {
    if (args.take_value("--url", options.url) || take_log_option(args)) continue;
    if (args.take_value("--wait", value)) {
      options.wait_ms = parse_duration_ms(value, "--wait");
    } else if (args.take_flag("--nonblock", "-n")) {
      options.wait_ms = 0;
    } else if (args.take_value("--lease", value)) {
      options.lease_ms = parse_duration_ms(value, "--lease");
      if (options.lease_ms < 3) throw usage_error("--lease: must be at least 3ms");
    } else if (args.take_value("--grace", value)) {
      options.grace_ms = parse_duration_ms(value, "--grace");
    } else if (args.take_value("--conflict-exit-code", value) || args.take_value("-E", value)) {
      options.conflict_exit_code = static_cast<int>(parse_integer(value, 0, 255, "--conflict-exit-code"));
    } else if (args.take_value("--hold-after-success", value)) {
      options.hold_after_success_ms = parse_duration_ms(value, "--hold-after-success");
      if (options.hold_after_success_ms < 1000) {
        throw usage_error("--hold-after-success: the period must be at least 1s");
      }
    } else if (args.take_value("--permits", value)) {
      options.permits = static_cast<int>(parse_integer(value, 1, 1000000, "--permits"));
    } else if (args.take_value("--max-attempts", value)) {
      options.max_attempts = parse_integer(value, 1, 1000000, "--max-attempts");
    } else {
      reject_unknown(args, "run");
    }
  }
  if (args.done() || args.peek() == "--") throw usage_error("dlock run: missing the lock NAME");
  options.name = args.next();
  args.take_flag("--");
  options.command = args.rest();
  if (options.command.empty()) throw usage_error("dlock run: missing the COMMAND to run after NAME --");
  if (options.max_attempts > 0 && options.hold_after_success_ms == 0) {
    throw usage_error("--max-attempts counts attempts per period: it needs --hold-after-success");
  }
  if (options.permits > 0 && options.hold_after_success_ms > 0) {
    throw usage_error(
        "--permits runs COMMAND under a permit, which is never kept: not with --hold-after-success");
  }
  return options;
}

}  // namespace dlock_cli
