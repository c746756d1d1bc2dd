// dlock elect [options] NAME [options] [--] COMMAND [ARGS...]: campaigns for
// the leadership of NAME and runs COMMAND only while leader, campaigning again
// after a lost leadership, until COMMAND ends by itself or dlock is stopped.
#pragma once

#include "arguments.hpp"
#include "signal_waiter.hpp"

namespace dlock_cli {

// Returns the exit code: COMMAND's status, or one of exit_codes.hpp.
int elect_command(Arguments& args, SignalWaiter& signals);

}  // namespace dlock_cli
