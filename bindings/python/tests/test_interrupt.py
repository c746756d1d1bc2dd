"""Ctrl-C during a blocking acquire: KeyboardInterrupt within 100 ms, the wait abandoned."""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import textwrap
import time

import redis

import dlock
from redis_server import RedisServer

CHILD = textwrap.dedent(
    """
    import signal, sys, time
    import dlock

    # As in a terminal: a process started in the background by a
    # non-interactive shell inherits SIGINT ignored, and Python then installs
    # no KeyboardInterrupt handler.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    client = dlock.Client(sys.argv[1])
    lock = client.lock(sys.argv[2])
    print("waiting", flush=True)
    try:
        lock.acquire()
        print("acquired", flush=True)
    except KeyboardInterrupt:
        interrupted_at = time.monotonic()
        print(f"interrupted {interrupted_at!r} {lock.hold_count}", flush=True)
    sys.stdin.readline()  # stay alive (client open) until the test has looked
    print(f"finally {lock.hold_count}", flush=True)
    """
)


def read_line(child: subprocess.Popen[str], timeout: float = 10.0) -> str:
    """The child's next line; fails instead of hanging when it says nothing."""
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], timeout)
    assert ready, f"the child printed nothing within {timeout} s"
    return child.stdout.readline()


def test_ctrl_c_interrupts_a_blocking_acquire(
    redis_server: RedisServer, client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = client.lock(name)
    holder.acquire()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, redis_server.url, name],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        assert read_line(child).strip() == "waiting"
        time.sleep(0.5)  # the child is inside its wait by now
        sent_at = time.monotonic()
        child.send_signal(signal.SIGINT)
        word, interrupted_at, hold_count = read_line(child).split()
        assert word == "interrupted" and hold_count == "0"
        # CLOCK_MONOTONIC is host-wide, so the two processes' readings compare.
        assert float(interrupted_at) - sent_at < 0.1
        holder.release()
        time.sleep(0.3)  # an abandoned wait that still ran would take the lock now
        assert not raw.exists(name)
        child.stdin.write("\n")
        child.stdin.flush()
        assert read_line(child).split() == ["finally", "0"]
    finally:
        child.kill()
        child.wait()
