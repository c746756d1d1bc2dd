"""A leader's term as dlock elect's COMMAND records it, and the check that terms never overlap.

Run as COMMAND: appends "<pid> start <term> <monotonic seconds> <ppid> <election>" to the log
named in argv[1], sleeps argv[2] seconds, then appends the "stop" line and exits with argv[3]
(default 0). On SIGTERM it appends the "stop" line at once and exits with 43 (STOPPED_EXIT).
"""
import os
import signal
import sys
import time

JOB = os.path.abspath(__file__)
STOPPED_EXIT = 43


def read_terms(path):
    """{pid: {"term", "start", "stop" (None while running or when killed), "ppid", "election"}}."""
    terms = {}
    if not os.path.exists(path):
        return terms
    with open(path) as log:
        for line in log:
            pid, event, term, at, ppid, election = line.split()
            entry = terms.setdefault(int(pid), {"term": int(term), "start": None, "stop": None,
                                                "ppid": int(ppid), "election": election})
            entry[event] = float(at)
    return terms


def find_violations(terms, ended_by=None):
    """Terms whose intervals overlap, and terms that do not rise in the order they started.

    A term with no stop line (its command was killed) ends at ended_by[pid], else never."""
    ended_by = ended_by or {}
    intervals = sorted((entry["start"], entry["stop"] or ended_by.get(pid, float("inf")), entry["term"], pid)
                       for pid, entry in terms.items())
    problems = []
    for before, after in zip(intervals, intervals[1:]):
        if after[0] < before[1]:
            problems.append(f"overlap: {before} and {after}")
        if after[2] <= before[2]:
            problems.append(f"term did not rise: {before} then {after}")
    return problems


if __name__ == "__main__":
    log_path, seconds = sys.argv[1], float(sys.argv[2])
    exit_code = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    term = os.environ["DLOCK_TERM"]
    election = os.environ["DLOCK_ELECTION"]

    def record(event):
        with open(log_path, "a") as log:
            log.write(f"{os.getpid()} {event} {term} {time.monotonic()} {os.getppid()} {election}\n")

    def on_sigterm(*_):
        record("stop")
        os._exit(STOPPED_EXIT)

    signal.signal(signal.SIGTERM, on_sigterm)
    record("start")
    time.sleep(seconds)
    record("stop")
    sys.exit(exit_code)
