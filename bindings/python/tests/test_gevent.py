"""Under gevent and eventlet: importing works with monkey patching done before or after
``import dlock``, each greenlet is its own owner, and a waiting greenlet yields to the hub.

Each test runs a child process, so that patching never leaks into the other tests.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from checker import Section, assert_exclusive
from redis_server import RedisServer

# argv: URL NAME LIBRARY ("gevent" or "eventlet") PATCH ("before" or "after" `import dlock`),
# then the script's own.
_PATCHED = textwrap.dedent(
    """
    import json, sys, time

    def patch():
        if sys.argv[3] == "gevent":
            from gevent import monkey; monkey.patch_all()
        else:
            import eventlet; eventlet.monkey_patch()

    if sys.argv[4] == "before":
        patch()
    import dlock
    if sys.argv[4] == "after":
        patch()

    if sys.argv[3] == "gevent":
        import gevent
        spawn, sleep, Timeout = gevent.spawn, gevent.sleep, gevent.Timeout
        def join_all(greenlets):
            gevent.joinall(greenlets, raise_error=True)
    else:
        import eventlet
        spawn, sleep, Timeout = eventlet.spawn, eventlet.sleep, eventlet.Timeout
        def join_all(greenlets):
            for greenlet in greenlets:
                greenlet.wait()  # raises what the greenthread raised

    client = dlock.Client(sys.argv[1])
    lock = client.lock(sys.argv[2])
    """
)

# 50 greenlets, CYCLES times each, read-modify-write one shared value under the lock, with a
# sleep (the library's, patched) between the read and the write for the others to run into.
_CONTENDING = _PATCHED + textwrap.dedent(
    """
    shared = {"value": 0}
    sections = []

    def worker(index):
        for _ in range(int(sys.argv[5])):
            with lock:
                start = time.monotonic()
                value = shared["value"]
                time.sleep(0.001)
                shared["value"] = value + 1
                sections.append([lock.fencing_token, index, start, time.monotonic()])

    join_all([spawn(worker, index) for index in range(50)])
    print(json.dumps({"value": shared["value"], "sections": sections}))
    """
)

# A greenlet that counts 10 ms ticks: they come only while the hub is free to run it.
_TICKING = _PATCHED + textwrap.dedent(
    """
    ticks = []

    def ticker():
        while True:
            ticks.append(time.monotonic())
            sleep(0.01)
    """
)

# The main greenlet holds the lock for HOLD seconds; meanwhile one greenlet waits for it,
# another counts 10 ms ticks, two more try it and look at their own holds, and one gives up
# its wait (the library's Timeout).
_WAITING = _TICKING + textwrap.dedent(
    """
    HOLD = 0.5
    outcome = {}

    def waiter():
        started = time.monotonic()
        outcome["waiter acquired"] = lock.acquire(timeout=10)
        outcome["waited"] = time.monotonic() - started
        outcome["waiter hold count"] = lock.hold_count
        lock.release()

    def other(key):
        outcome[key] = [lock.acquire(timeout=0.1), lock.hold_count]
        try:
            lock.release()
        except dlock.LockNotOwnedError:
            outcome[key].append("not owned")

    def giving_up():
        try:
            with Timeout(0.1):
                lock.acquire()
        except Timeout:
            outcome["gave up"] = lock.hold_count

    lock.acquire()
    started = time.monotonic()
    helpers = [spawn(ticker), spawn(waiter), spawn(other, "other 1"), spawn(other, "other 2"),
               spawn(giving_up)]
    sleep(HOLD)
    outcome["ticks while held"] = sum(1 for tick in ticks if tick - started < HOLD)
    outcome["main hold count"] = lock.hold_count
    lock.release()
    join_all(helpers[1:])
    sleep(0.3)  # a grant to the greenlet that gave up would be released by now, not kept
    outcome["locked at the end"] = lock.locked()
    print(json.dumps(outcome))
    """
)

# A semaphore's and a latch's waits yield to the hub as the lock's do: while the main
# greenlet holds the one permit and the latch is closed, one greenlet waits for a permit,
# one for the latch, one gives up its wait for a permit, and a ticker counts 10 ms ticks.
_WAITING_ON_OTHERS = _TICKING + textwrap.dedent(
    """
    HOLD = 0.5
    semaphore = client.semaphore(sys.argv[2] + ":semaphore")
    semaphore.try_set_permits(1)
    latch = client.count_down_latch(sys.argv[2] + ":latch")
    latch.try_set_count(1)
    outcome = {}

    def permit_waiter():
        outcome["permit"] = semaphore.acquire(timeout=10)
        semaphore.release()

    def latch_waiter():
        outcome["latch"] = latch.wait(timeout=10)

    def giving_up():
        try:
            with Timeout(0.1):
                semaphore.acquire()
        except Timeout:
            outcome["gave up"] = True

    semaphore.acquire()
    started = time.monotonic()
    helpers = [spawn(ticker), spawn(permit_waiter), spawn(latch_waiter), spawn(giving_up)]
    sleep(HOLD)
    outcome["ticks while waiting"] = sum(1 for tick in ticks if tick - started < HOLD)
    semaphore.release()
    latch.count_down()
    join_all(helpers[1:])
    sleep(0.3)  # a permit granted to the greenlet that gave up would be back by now
    outcome["permits at the end"] = semaphore.available_permits()
    print(json.dumps(outcome))
    """
)


def run_child(script: str, *args: str) -> Any:
    """The JSON the child printed; fails instead of hanging when it never ends."""
    child = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=30
    )
    assert child.returncode == 0, child.stderr
    return json.loads(child.stdout)


LIBRARIES = pytest.mark.parametrize(
    "library", [pytest.param(library, marks=pytest.mark.skipif(
        importlib.util.find_spec(library) is None, reason=f"{library} is not installed"))
        for library in ("gevent", "eventlet")])
PATCHING = pytest.mark.parametrize("patch", ["before", "after"])


@LIBRARIES
@PATCHING
def test_contending_greenlets_are_exclusive(
    redis_server: RedisServer, name: str, library: str, patch: str
) -> None:
    cycles = 3
    report = run_child(_CONTENDING, redis_server.url, name, library, patch, str(cycles))
    assert report["value"] == 50 * cycles  # no update lost
    sections = [Section(token, f"greenlet-{index}", start, end)
                for token, index, start, end in report["sections"]]
    assert_exclusive(sections, expected=50 * cycles)


@LIBRARIES
@PATCHING
def test_a_waiting_greenlet_lets_the_others_run_and_greenlets_share_no_hold(
    redis_server: RedisServer, name: str, library: str, patch: str
) -> None:
    outcome = run_child(_WAITING, redis_server.url, name, library, patch)
    # 50 ticks are due while the lock is held; a blocked hub would let through about one.
    assert outcome["ticks while held"] >= 10
    assert outcome["main hold count"] == 1
    assert outcome["waiter acquired"] is True and outcome["waiter hold count"] == 1
    assert outcome["waited"] >= 0.4  # it got the lock once the main greenlet let it go
    for other in ("other 1", "other 2"):
        assert outcome[other] == [False, 0, "not owned"]
    assert outcome["gave up"] == 0
    assert outcome["locked at the end"] is False


@LIBRARIES
def test_greenlets_waiting_on_a_semaphore_or_a_latch_let_the_others_run(
    redis_server: RedisServer, name: str, library: str
) -> None:
    outcome = run_child(_WAITING_ON_OTHERS, redis_server.url, name, library, "before")
    assert outcome["ticks while waiting"] >= 10
    assert outcome["permit"] is True and outcome["latch"] is True
    assert outcome["gave up"] is True
    assert outcome["permits at the end"] == 1
