// dlock run: acquire NAME, run COMMAND while the lease is kept alive, release.
#pragma once

#include "arguments.hpp"
#include "signal_waiter.hpp"

namespace dlock_cli {

// Returns the exit code: COMMAND's status, or one of exit_codes.hpp.
int run_command(Arguments& args, SignalWaiter& signals);

}  // namespace dlock_cli
