"""The Python observer of election_observers.py: one JSON line per leader
Election.observe() tells, until stdin closes. Usage: election_watch.py URL NAME"""
import json
import sys
import threading

import dlock


def main() -> None:
    url, name = sys.argv[1], sys.argv[2]
    with dlock.Client(url) as client, client.election(name) as election:
        def follow() -> None:
            for leader in election.observe():
                print(json.dumps({"term": leader.term, "value": leader.value}), flush=True)

        threading.Thread(target=follow, daemon=True).start()
        sys.stdin.read()  # runs until the driver closes our stdin


if __name__ == "__main__":
    main()
