"""A job every node starts each hour (e.g. from cron) that must run once per hour.

The resource it writes, here a JSON file, keeps the highest fencing token it has
accepted and refuses older ones, so a node that lost its lock (paused,
partitioned) cannot overwrite a newer holder's work.

Usage: python3 hourly_job.py [redis://host:port] [state-file]
"""
import json
import sys
import time

import dlock


def write_report(path: str, hour: int, token: int) -> None:
    """The fenced resource: remembers the last hour reported and the highest token."""
    try:
        with open(path) as f:
            state = json.load(f)
    except FileNotFoundError:
        state = {"hour": None, "token": 0}
    if token < state["token"]:
        raise RuntimeError(f"stale token {token} refused")
    if state["hour"] == hour:
        print(f"hour {hour} already reported")
        return
    with open(path, "w") as f:
        json.dump({"hour": hour, "token": token}, f)
    print(f"report for hour {hour} written with token {token}")


url = sys.argv[1] if len(sys.argv) > 1 else "redis://127.0.0.1:6379"
path = sys.argv[2] if len(sys.argv) > 2 else "hourly-report.json"
with dlock.Client(url) as client:
    lock = client.lock("hourly-report")
    if not lock.acquire(blocking=False):
        print("another node is writing the report")
    else:
        try:
            write_report(path, int(time.time() // 3600), lock.fencing_token)
        finally:
            lock.release()
