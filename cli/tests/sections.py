"""Critical sections as COMMAND records them, and the check that none overlap."""
import os
import subprocess
import sys
import time

# Run as COMMAND: appends "<start> <end> <fencing token>" (monotonic seconds) to
# the log named in argv[1], after holding the section for argv[2] seconds.
RECORDER = os.path.abspath(__file__)


def find_violations(sections):
    """Overlapping sections, and tokens that do not rise in the order sections start."""
    problems = []
    ordered = sorted(sections)
    for before, after in zip(ordered, ordered[1:]):
        if after[0] < before[1]:
            problems.append(f"overlap: {before} and {after}")
        if after[2] <= before[2]:
            problems.append(f"token did not rise: {before} then {after}")
    return problems


def contend(dlock, env, name, log, runners, runs_each, timeout=120):
    """`runners` shell loops at once, each `runs_each` dlock runs on `name` recording their
    sections in `log`, so that they contend throughout; their exit codes."""
    loop = (f'for i in $(seq {runs_each}); do '
            f'"$0" run {name} -- "{sys.executable}" "{RECORDER}" "{log}" 0.05 || exit 1; done')
    started = [subprocess.Popen(["sh", "-c", loop, dlock], env=env) for _ in range(runners)]
    try:
        return [runner.wait(timeout=timeout) for runner in started]
    finally:
        for runner in started:
            if runner.poll() is None:
                runner.kill()
                runner.wait()


def read_log(path):
    with open(path) as log:
        return [(float(a), float(b), int(c)) for a, b, c in (line.split() for line in log)]


if __name__ == "__main__":
    start = time.monotonic()
    time.sleep(float(sys.argv[2]))
    end = time.monotonic()
    with open(sys.argv[1], "a") as log:
        log.write(f"{start} {end} {os.environ['DLOCK_FENCING_TOKEN']}\n")
