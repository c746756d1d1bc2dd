#include "help.hpp"

namespace dlock_cli {

const char* const help_text = R"(Usage:
  dlock run [options] NAME [--] COMMAND [ARGS...]
  dlock status [--url URL] [--json] NAME
  dlock list [--url URL] [--json] [PREFIX]
  dlock release --force [--url URL] NAME
  dlock elect [options] NAME [options] [--] COMMAND [ARGS...]
  dlock leader [--url URL] [--json] [--watch] NAME
  dlock schema [--url URL]
  dlock --help | --version

Distributed locks on Redis, like flock(1) across machines.

dlock run acquires the lock NAME, runs COMMAND with DLOCK_NAME and
DLOCK_FENCING_TOKEN in its environment while keeping the lease alive,
forwards SIGINT, SIGTERM and SIGHUP to it, releases the lock and exits
with COMMAND's status.
  --url URL                 Redis to use (default $DLOCK_URL, else
                            redis://127.0.0.1:6379)
  --wait DUR                give up after waiting DUR for the lock
                            (default: wait forever)
  -n, --nonblock            do not wait: give up if the lock is held
  -E, --conflict-exit-code N
                            exit code when the lock is not taken (75)
  --lease DUR               lease kept alive while COMMAND runs (30s):
                            a crashed node's lock is free after it
  --grace DUR               once the lock is lost, time between SIGTERM
                            and SIGKILL to COMMAND (10s)
  --hold-after-success DUR  once-per-period job: periods are DUR long,
                            aligned to the Unix epoch; after COMMAND
                            succeeds, keep the lock until the period ends
                            (others skip it); on failure release at once;
                            without --wait or -n, wait at most until the
                            period ends
  --max-attempts N          with --hold-after-success: give up once N
                            attempts were made in the current period
  --permits N               instead of the lock, hold one of N leased
                            permits of the semaphore NAME (at most N
                            runs at once; DLOCK_PERMIT_ID in COMMAND's
                            environment instead of DLOCK_FENCING_TOKEN)

dlock elect campaigns for the leadership of the election NAME and runs
COMMAND only while leader, with DLOCK_ELECTION and DLOCK_TERM (the
term, a fencing token) in its environment. When the leadership is lost,
COMMAND gets SIGTERM, then SIGKILL after the grace period, and dlock
campaigns again. When COMMAND ends by itself, dlock resigns and exits
with its status. SIGINT or SIGTERM sent to dlock stop COMMAND the same
way; dlock then resigns and exits with COMMAND's status (128+N when
signal N ends a campaign's wait).
  --url URL                 Redis to use (as for run)
  --value V                 what the leader publishes (default
                            <hostname>:<pid>)
  --lease DUR               leadership lease kept alive while leading
                            (30s): a crashed leader is replaced after it
  --grace DUR               time between SIGTERM and SIGKILL to COMMAND
                            once the leadership is lost or dlock is
                            stopped (10s)

Every command takes these, before its operands:
  -q, --quiet               show none of the library's log records
  -v, --verbose             show its INFO records too (default: warnings
                            and errors, as "dlock: warning: ...")
  -vv                       show its DEBUG records too

dlock status shows NAME's holders (host and pid when a dlock run holds
it), remaining lease and last fencing token; it exits 0 when NAME is
held, 3 when it is not. dlock list shows every lock whose name starts
with PREFIX, one line each: name, holder, lease left, last token.
dlock leader prints the current leader of the election NAME: its value,
term and since when it leads; it exits 0 when someone leads, 3 when
nobody does. With --watch it prints that leader and then every new
leader and proclaimed value, a line each, until interrupted (exit 0).

dlock schema prints the statements the SQL backend of URL (postgresql://,
mysql://) runs to create its token source and lock table (table= of the
URL, ShedLock's for table=shedlock), for an administrator to run when the
client's user may not create them. It connects to nothing.

Durations: an integer and a unit, ms s m h d, possibly repeated: 500ms,
30s, 5m, 1h, 1h30m.

Exit codes: COMMAND's status (128+N when signal N ended it); 3 not held
(status) or no leader (leader); 64 usage error; 69 the server (Redis,
ZooKeeper, the database) unreachable or failing, a URL this build cannot
serve, or schema of a URL without one;
70 internal error; 75 lock not acquired (see -E); 79 lock lost while
COMMAND ran; 80 --max-attempts reached; 126 COMMAND not executable; 127
COMMAND not found.
)";

}  // namespace dlock_cli
