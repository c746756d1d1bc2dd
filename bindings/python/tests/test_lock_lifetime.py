"""A hold lives until its owner releases it or the client closes, whatever becomes of the
Lock objects it was taken through; each hold reports its loss to the on_lost of the object
through which it was taken."""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from typing import Callable, Iterator

import pytest
import redis

import dlock
from redis_server import RedisServer

# Long enough for a wrongly released lock to be seen free.
_SETTLE_SECONDS = 0.3


def _assert_held_by_client(raw: redis.Redis, other_client: dlock.Client, name: str) -> None:
    gc.collect()
    time.sleep(_SETTLE_SECONDS)
    assert raw.exists(name)
    assert not other_client.lock(name).acquire(blocking=False)


def test_a_dropped_temporary_keeps_its_hold(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    assert client.lock(name).acquire()
    _assert_held_by_client(raw, other_client, name)
    assert client.lock(name).hold_count == 1
    client.lock(name).release()  # through another object: the hold is the caller's
    assert not raw.exists(name)
    assert other_client.lock(name).acquire(blocking=False)
    other_client.lock(name).release()


def test_dropping_one_object_keeps_the_hold_another_relies_on(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    a = client.lock(name)
    a.acquire()
    b = client.lock(name)
    del a
    _assert_held_by_client(raw, other_client, name)
    assert b.held and b.hold_count == 1
    b.release()
    assert not raw.exists(name)


def test_acquire_in_a_condition_protects_the_block(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    ran = []

    def run() -> None:
        _assert_held_by_client(raw, other_client, name)
        ran.append(True)

    if client.lock(name).acquire(blocking=False):
        run()
        client.lock(name).release()
    assert ran == [True]
    assert not raw.exists(name)


def test_a_dropped_temporary_keeps_a_tasks_hold(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    async def task() -> None:
        assert await client.lock(name).acquire_async()
        gc.collect()
        await asyncio.sleep(_SETTLE_SECONDS)
        assert raw.exists(name)
        assert not other_client.lock(name).acquire(blocking=False)
        assert client.lock(name).hold_count == 1
        client.lock(name).release()

    asyncio.run(task())
    assert not raw.exists(name)


def test_a_dropped_temporary_keeps_a_hold_taken_after_waiting(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    other_client.lock(name, lease=0.3).acquire()
    assert client.lock(name).acquire(timeout=10)  # waits in a thread of its own
    gc.collect()
    time.sleep(_SETTLE_SECONDS)
    assert raw.exists(name) and client.lock(name).held
    client.lock(name).release()
    assert not raw.exists(name)


def test_closing_the_client_releases_holds_of_dropped_objects(
    redis_server: RedisServer, raw: redis.Redis, name: str
) -> None:
    client = dlock.Client(redis_server.url)
    names = [f"{name}-{index}" for index in range(5)]
    for lock_name in names:
        assert client.lock(lock_name).acquire()
    gc.collect()
    assert all(raw.exists(lock_name) for lock_name in names)
    client.close()
    assert not any(raw.exists(lock_name) for lock_name in names)


def test_memory_is_bounded_by_the_locks_in_use(client: dlock.Client, name: str) -> None:
    """White-box: the client keeps no handle for a name nothing refers to or holds."""
    handles = client._handles
    for index in range(50):
        with client.lock(f"{name}-{index}"):
            pass
    kept = client.lock(f"{name}-kept")
    client.lock(f"{name}-held").acquire()
    gc.collect()
    assert sorted(handles.names()) == [f"{name}-held", f"{name}-kept"]
    client.lock(f"{name}-held").release()
    del kept
    gc.collect()
    assert list(handles.names()) == []


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_memory_stays_flat_over_100000_distinct_names(client: dlock.Client, name: str) -> None:
    """A service locking ``orders:<id>`` for ever more ids: the client's handles and the
    process's resident memory (Python objects and the C library's allocations alike) stay
    flat from 20,000 to 100,000 names."""

    def lock_names(start: int, stop: int) -> None:
        for index in range(start, stop):
            lock = client.lock(f"{name}:{index}")
            lock.acquire()
            lock.release()

    lock_names(0, 20_000)
    gc.collect()
    resident_before = _resident_bytes()
    lock_names(20_000, 100_000)
    gc.collect()
    resident_growth = _resident_bytes() - resident_before
    assert client._handles.names() == [], "no handle kept for a name nothing refers to or holds"
    # A leak of one small object per name would be 80,000 of them: megabytes.
    assert resident_growth < 8_000_000, f"resident memory grew by {resident_growth} bytes"


class _Reports:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, int]] = []
        self.event = threading.Event()

    def callback(self, label: str) -> Callable[[str, int], None]:
        def on_lost(lost_name: str, token: int) -> None:
            self.calls.append((label, lost_name, token))
            self.event.set()

        return on_lost

    def wait(self) -> list[tuple[str, str, int]]:
        assert self.event.wait(5)
        time.sleep(0.1)  # a second, wrong report would arrive about now
        self.event.clear()
        calls, self.calls = self.calls, []
        return calls


@pytest.fixture
def fast_client(redis_server: RedisServer) -> Iterator[dlock.Client]:
    """A client whose watchdog renews, and so notices a loss, within 0.2 s."""
    with dlock.Client(redis_server.url, watchdog_timeout=0.6) as opened:
        yield opened


def test_each_hold_reports_to_the_object_it_was_taken_through(
    fast_client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    reports = _Reports()
    first = fast_client.lock(name, on_lost=reports.callback("first"))
    second = fast_client.lock(name, on_lost=reports.callback("second"))
    plain = fast_client.lock(name)

    first.acquire()
    assert second.acquire()  # a re-entry keeps the hold's callback
    token = first.fencing_token
    other_client.lock(name).force_release()
    assert reports.wait() == [("first", name, token)]
    for _ in range(2):  # each release of a lost hold raises
        with pytest.raises(dlock.LockLostError):
            second.release()
    assert first.hold_count == 0

    second.acquire()
    token = second.fencing_token
    other_client.lock(name).force_release()
    assert reports.wait() == [("second", name, token)]
    with pytest.raises(dlock.LockLostError):
        first.release()

    plain.acquire()  # no on_lost: a loss reports to no one
    other_client.lock(name).force_release()
    time.sleep(0.5)
    with pytest.raises(dlock.LockLostError):
        plain.release()
    assert reports.calls == []


def test_a_hold_reports_its_loss_after_its_object_is_dropped(
    fast_client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    reports = _Reports()
    fast_client.lock(name, on_lost=reports.callback("dropped")).acquire()
    gc.collect()
    token = fast_client.lock(name).fencing_token
    other_client.lock(name).force_release()
    assert reports.wait() == [("dropped", name, token)]
    with pytest.raises(dlock.LockLostError):
        fast_client.lock(name).release()


def test_holds_of_two_threads_report_to_their_own_objects(
    fast_client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    """Two owners, two names, one object each: reports never cross."""
    reports = _Reports()
    names = {"a": f"{name}-a", "b": f"{name}-b"}
    tokens: dict[str, int] = {}

    def take(label: str) -> None:
        lock = fast_client.lock(names[label], on_lost=reports.callback(label))
        lock.acquire()
        tokens[label] = lock.fencing_token

    for label in names:
        worker = threading.Thread(target=take, args=(label,))
        worker.start()
        worker.join()
    other_client.lock(names["b"]).force_release()
    assert reports.wait() == [("b", names["b"], tokens["b"])]
    other_client.lock(names["a"]).force_release()
    assert reports.wait() == [("a", names["a"], tokens["a"])]


def test_a_released_hold_reports_nothing_later(
    fast_client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    reports = _Reports()
    lock = fast_client.lock(name, on_lost=reports.callback("released"))
    with lock:
        pass
    plain = fast_client.lock(name)
    plain.acquire()  # a new hold, through an object without on_lost
    other_client.lock(name).force_release()
    time.sleep(0.5)
    with pytest.raises(dlock.LockLostError):
        plain.release()
    assert reports.calls == []
