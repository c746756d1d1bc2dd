// dlock: the command-line face of libdlock (see docs/cli.md, dlock(1)).
#include <cstdio>
#include <exception>
#include <string>

#include "dlock.h"
#include "elect_command.hpp"
#include "exit_codes.hpp"
#include "failure.hpp"
#include "help.hpp"
#include "leader_command.hpp"
#include "list_command.hpp"
#include "log_output.hpp"
#include "release_command.hpp"
#include "run_command.hpp"
#include "schema_command.hpp"
#include "signal_waiter.hpp"
#include "status_command.hpp"

namespace dlock_cli {
namespace {

int dispatch(int argc, char** argv) {
  // Before any thread starts, so that every thread inherits the signal mask.
  SignalWaiter signals;
  start_library_log();
  if (argc < 2) throw usage_error("missing a command: run, status, list, release, elect, leader or schema");
  const std::string command = argv[1];
  Arguments args(argc, argv, 2);
  if (command == "--help" || command == "-h" || command == "help" || args.take_flag("--help", "-h")) {
    std::fputs(help_text, stdout);
    return exit_code::ok;
  }
  if (command == "--version") {
    std::printf("dlock %s\n", dlock_version());
    return exit_code::ok;
  }
  if (command == "run") return run_command(args, signals);
  if (command == "status") return status_command(args);
  if (command == "list") return list_command(args);
  if (command == "release") return release_command(args);
  if (command == "elect") return elect_command(args, signals);
  if (command == "leader") return leader_command(args, signals);
  if (command == "schema") return schema_command(args);
  throw usage_error("unknown command '" + command +
                    "': expected run, status, list, release, elect, leader or schema");
}

int report(const Failure& failure) {
  std::fprintf(stderr, "dlock: %s\n", failure.what());
  return failure.exit_code();
}

}  // namespace
}  // namespace dlock_cli

int main(int argc, char** argv) {
  try {
    return dlock_cli::dispatch(argc, argv);
  } catch (const dlock_cli::Failure& failure) {
    return dlock_cli::report(failure);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "dlock: unexpected error: %s\n", error.what());
    return dlock_cli::exit_code::internal;
  }
}
