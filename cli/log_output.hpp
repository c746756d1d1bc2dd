// The library's log records (dlock_set_log_handler) on standard error, as
// "dlock: warning: ..."; and what they tell about why a hold was lost, which
// the lost callback does not say.
#pragma once

#include "arguments.hpp"

namespace dlock_cli {

// Writes the library's warnings and errors from now on. Call it first in main().
void start_library_log();

// Takes --quiet (no records), -v (and INFO) or -vv (and DEBUG) when it is
// next in `args`, and applies it at once.
bool take_log_option(Arguments& args);

// Why a hold was lost, as the records written so far tell it.
enum class LossCause {
  unknown,
  redis_unreachable,  // renewals failed (connection errors) until the lease ran out
  lease_ran_out,      // no renewal went through in time, with no connection error seen
  taken_away,         // a renewal found the lock deleted or held by another owner
};
LossCause loss_cause_seen();
// Starts afresh for the next hold (dlock elect holds one leadership after another).
void forget_loss_evidence();
// The cause in words, for "dlock: lost the lock 'NAME' while 'COMMAND' ran: <words>".
const char* describe(LossCause cause);

}  // namespace dlock_cli
