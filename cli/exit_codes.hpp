// The exit codes of the dlock command (documented in docs/cli.md and dlock(1)).
// They sit outside the range shells use for signals (128+) and clear of the
// codes commands commonly return, following sysexits.h where one fits.
#pragma once

namespace dlock_cli::exit_code {

constexpr int ok = 0;
constexpr int not_held = 3;             // dlock status: nobody holds the lock (as LSB's "not running")
constexpr int no_leader = 3;            // dlock leader: nobody leads the election (as not_held)
constexpr int usage = 64;               // EX_USAGE: bad option, duration, URL or name
constexpr int server_unavailable = 69;  // EX_UNAVAILABLE: the server unreachable, refused or failed
constexpr int internal = 70;            // EX_SOFTWARE: an unexpected failure
constexpr int not_acquired = 75;        // EX_TEMPFAIL: lock held elsewhere (--conflict-exit-code)
constexpr int lock_lost = 79;           // the lock was lost while COMMAND ran
constexpr int max_attempts = 80;        // --max-attempts reached for the current period
constexpr int cannot_execute = 126;     // COMMAND found but not executable (as sh)
constexpr int command_not_found = 127;  // COMMAND not found (as sh)
constexpr int signal_base = 128;        // COMMAND (or the wait) ended by signal N: 128 + N

}  // namespace dlock_cli::exit_code
