"""Observers in three languages agree on the sequence of leaders.

A C observer (`dlock leader --watch --json`), a Python one (election_watch.py)
and a Java one (ElectionWatch.java, run from source against the jar) follow
one election on a throwaway redis-server while candidates take turns,
proclaim and resign; each must tell the same (term, value) sequence, in
order, none twice, as the candidates granted them.

Usage: election_observers.py --dlock CLI --python PYTHON --jar DLOCK_JAR
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
from redis_server import RedisServer  # noqa: E402  (the project's one launcher)

NAME = "interop-election"
ROUNDS = 12


def read_lines(process: subprocess.Popen[str], count: int, timeout: float) -> list[dict]:
    """The first `count` JSON lines of an observer, or fewer when it stays silent."""
    lines: list[dict] = []
    deadline = time.monotonic() + timeout
    while len(lines) < count and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        told = json.loads(line)  # the C observer's lines say more (name, since_ms)
        lines.append({"term": told["term"], "value": told["value"]})
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlock", required=True, help="the dlock command")
    parser.add_argument("--python", required=True, help="a Python with dlock installed")
    parser.add_argument("--jar", required=True, help="the dlock jar (its native library inside)")
    arguments = parser.parse_args()

    with RedisServer() as server:
        url = server.url
        # The candidates run in the binding, in processes of their own. The
        # first leads until the observers have told it, then resigns.
        first_leader = subprocess.Popen([arguments.python, "-c", FIRST_LEADER, url, NAME], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        first = json.loads(first_leader.stdout.readline() or "null")
        if first is None:
            print("FAILED: the first leader did not lead")
            return 1
        observers = {
            "C": [arguments.dlock, "leader", "--url", url, "--watch", "--json", NAME],
            "Python": [arguments.python, str(HERE / "election_watch.py"), url, NAME],
            "Java": ["java", "-cp", arguments.jar, str(HERE / "ElectionWatch.java"), url, NAME],
        }
        processes = {language: subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                text=True)
                     for language, command in observers.items()}
        try:
            # Each tells the leader at its start first: then it is following.
            seen = {language: read_lines(process, 1, 60) for language, process in processes.items()}
            for language, lines in seen.items():
                if lines != [first]:
                    print(f"FAILED: the {language} observer started with {lines}, not {first}")
                    return 1
            first_leader.stdin.close()
            first_leader.wait(timeout=30)
            turns = subprocess.run([arguments.python, "-c", CANDIDATES, url, NAME, str(ROUNDS)],
                                   capture_output=True, text=True, timeout=60)
            if turns.returncode != 0:
                print(f"FAILED: the candidates: {turns.stderr}")
                return 1
            expected = [first, *json.loads(turns.stdout)]
            for language, process in processes.items():
                seen[language] += read_lines(process, len(expected) - 1, 30)
        finally:
            for language, process in processes.items():
                if language == "C":
                    process.terminate()
                process.stdin.close()
                process.wait(timeout=30)
        failed = 0
        for language, lines in seen.items():
            if lines != expected:
                print(f"FAILED: the {language} observer told {lines}\n  the candidates granted {expected}")
                failed += 1
        if not failed:
            print(f"C, Python and Java observers told the same {len(expected)} leaders, in order")
        print(f"election observers: {3 - failed} passed, {failed} failed")
        return 1 if failed else 0


# The first leader: says its term, leads until its stdin closes, resigns.
FIRST_LEADER = r'''
import json, sys
import dlock
with dlock.Client(sys.argv[1]) as client, client.election(sys.argv[2]) as election:
    print(json.dumps({"term": election.campaign("first", timeout=0), "value": "first"}), flush=True)
    sys.stdin.read()
    election.resign()
'''

# Candidates taking turns, every third proclaiming a second value; prints
# what was granted and proclaimed, in order.
CANDIDATES = r'''
import json, sys
import dlock
url, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
told = []
with dlock.Client(url) as client:
    for round in range(rounds):
        with client.election(name) as candidate:
            value = f"candidate-{round}"
            term = candidate.campaign(value, timeout=10)
            told.append({"term": term, "value": value})
            if round % 3 == 2:
                candidate.proclaim(value + "+")
                told.append({"term": term, "value": value + "+"})
            candidate.resign()
print(json.dumps(told))
'''

if __name__ == "__main__":
    sys.exit(main())
