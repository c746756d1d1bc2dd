// COMMAND's run to its end under a hold that can be lost (dlock run, dlock
// elect): signals sent to dlock are forwarded to it, and once the hold is lost
// (or, for dlock elect, dlock is told to stop) it gets SIGTERM, then SIGKILL
// after the grace period.
#pragma once

#include <cstdint>
#include <functional>

#include "child_process.hpp"
#include "notice.hpp"
#include "signal_waiter.hpp"

namespace dlock_cli {

struct Supervision {
  int64_t grace_ms = 10000;  // SIGTERM to SIGKILL
  // SIGINT and SIGTERM sent to dlock stop COMMAND: forwarded (the terminal's
  // reach it by themselves), then SIGKILL after the grace period. Otherwise
  // they are only forwarded, as every other signal.
  bool signals_stop = false;
  std::function<void()> report_lost;  // called once, when `lost` is first raised
};

struct Outcome {
  int status = 0;       // COMMAND's, as a shell reports it
  bool lost = false;    // the hold was lost while it ran
  int stop_signal = 0;  // with signals_stop: the SIGINT or SIGTERM that stopped it, else 0
};

// Returns once COMMAND has ended (reaped).
Outcome supervise(ChildProcess& child, const Supervision& supervision, SignalWaiter& signals, Notice& lost);

}  // namespace dlock_cli
