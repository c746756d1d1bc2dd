"""Critical sections as COMMAND records them, and the check that none overlap."""
import os
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


def read_log(path):
    with open(path) as log:
        return [(float(a), float(b), int(c)) for a, b, c in (line.split() for line in log)]


if __name__ == "__main__":
    start = time.monotonic()
    time.sleep(float(sys.argv[2]))
    end = time.monotonic()
    with open(sys.argv[1], "a") as log:
        log.write(f"{start} {end} {os.environ['DLOCK_FENCING_TOKEN']}\n")
