"""Two processes, each with its own client, on one lock: checked by fencing tokens."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import dlock
from checker import Section, assert_exclusive
from redis_server import RedisServer

_CYCLES = 40

WORKER = textwrap.dedent(
    """
    import json, os, sys, time
    import dlock

    with dlock.Client(sys.argv[1]) as client:
        lock = client.lock(sys.argv[2])
        for _ in range(int(sys.argv[3])):
            with lock:
                start = time.monotonic()
                time.sleep(0.001)
                print(json.dumps([lock.fencing_token, os.getpid(), start, time.monotonic()]))
    """
)


def test_two_processes_never_overlap(redis_server: RedisServer, name: str) -> None:
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, redis_server.url, name, str(_CYCLES)],
            stdout=subprocess.PIPE, text=True,
        )
        for _ in range(2)
    ]
    sections = []
    for worker in workers:
        output, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0
        for line in output.splitlines():
            token, pid, start, end = json.loads(line)
            sections.append(Section(token, str(pid), start, end))
    assert_exclusive(sections, expected=2 * _CYCLES)


def test_tokens_continue_across_clients(redis_server: RedisServer, name: str) -> None:
    tokens = []
    for _ in range(3):
        with dlock.Client(redis_server.url) as client, client.lock(name) as lock:
            tokens.append(lock.fencing_token)
    assert tokens == sorted(set(tokens))
