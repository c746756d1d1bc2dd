// dlock leader NAME [--json] [--watch]: the current leader of the election
// NAME (its value, term and start), exit 3 when nobody leads; with --watch,
// that leader and every change after it, a line each, until interrupted.
#pragma once

#include "arguments.hpp"
#include "signal_waiter.hpp"

namespace dlock_cli {

int leader_command(Arguments& args, SignalWaiter& signals);

}  // namespace dlock_cli
