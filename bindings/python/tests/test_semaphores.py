"""Semaphore, leased permits and count-down latch: acquire/release, with, async with, bad
input, Ctrl-C, and several processes sharing N permits."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
import redis

import dlock
from redis_server import RedisServer
from test_interrupt import read_line


# --- semaphore ---------------------------------------------------------------------------


def test_semaphore_counts_permits_in_redissons_layout(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    semaphore = client.semaphore(name)
    assert semaphore.available_permits() == 0
    assert semaphore.try_set_permits(2)
    assert not semaphore.try_set_permits(9)
    assert raw.get(name) == "2"
    assert semaphore.acquire(permits=2)
    assert not semaphore.acquire(blocking=False)
    assert not semaphore.acquire(timeout=0.2)
    semaphore.release(2)
    with semaphore:
        assert raw.get(name) == "1"
    assert semaphore.available_permits() == 2


def test_semaphore_release_wakes_a_waiter_of_another_client(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    waiting = client.semaphore(name)
    waiting.try_set_permits(0)
    releaser = threading.Timer(0.3, lambda: other_client.semaphore(name).release())
    releaser.start()
    started = time.monotonic()
    assert waiting.acquire(timeout=5)
    assert time.monotonic() - started < 1.5
    releaser.join()


def test_semaphore_async_with(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    semaphore = client.semaphore(name)
    semaphore.try_set_permits(1)

    async def main() -> None:
        async with semaphore:
            assert raw.get(name) == "0"
            # A second task waits, and its cancellation gives nothing back twice.
            waiter = asyncio.ensure_future(semaphore.acquire_async())
            await asyncio.sleep(0.2)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        assert raw.get(name) == "1"
        assert await semaphore.acquire_async(timeout=1)
        await semaphore.release_async()

    asyncio.run(main())
    time.sleep(0.2)
    assert raw.get(name) == "1"


def test_semaphore_bad_input(client: dlock.Client, name: str) -> None:
    semaphore = client.semaphore(name)
    with pytest.raises(dlock.InvalidArgumentError, match="permits"):
        semaphore.acquire(permits=0)
    with pytest.raises(dlock.InvalidArgumentError, match="permits"):
        semaphore.release(-1)
    with pytest.raises(TypeError, match="permits"):
        semaphore.release("1")  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError, match="name"):
        client.semaphore("")
    with pytest.raises(TypeError, match="name"):
        client.semaphore(b"x")  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError, match="timeout"):
        semaphore.acquire(timeout=-3)


# --- leased permits ----------------------------------------------------------------------


def test_permits_have_ids_and_release_by_id(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    semaphore = client.permit_expirable_semaphore(name)
    assert semaphore.try_set_permits(2)
    first = semaphore.acquire()
    second = semaphore.acquire(timeout=0, lease=5)
    assert first is not None and second is not None
    assert len(first.id) == 32 and first.id != second.id
    assert raw.zcard("{" + name + "}:timeout") == 2
    assert semaphore.acquire(timeout=0) is None
    first.release()
    with pytest.raises(dlock.LockNotOwnedError):
        first.release()
    assert not semaphore.try_release(first.id)
    assert semaphore.try_release(second.id)
    assert semaphore.available_permits() == 2
    with semaphore.acquire() as permit:  # type: ignore[union-attr]
        assert semaphore.available_permits() == 1
        assert isinstance(permit, dlock.Permit)
    with semaphore as entered:
        assert len(entered.id) == 32
        assert semaphore.available_permits() == 1
    assert semaphore.available_permits() == 2


def test_a_lost_permit_is_reported(client: dlock.Client, other_client: dlock.Client, name: str) -> None:
    reports: list[tuple[str, str]] = []
    semaphore = client.permit_expirable_semaphore(name, on_lost=lambda n, i: reports.append((n, i)))
    semaphore.try_set_permits(1)
    permit = semaphore.acquire(lease=0.3)
    assert permit is not None
    taken = other_client.permit_expirable_semaphore(name).acquire(timeout=3)
    assert taken is not None, "the expired permit never returned to the pool"
    deadline = time.monotonic() + 2
    while not reports and time.monotonic() < deadline:
        time.sleep(0.01)
    assert reports == [(name, permit.id)]
    with pytest.raises(dlock.LockLostError):
        permit.release()
    assert len(reports) == 1
    taken.release()


def test_permit_async_with(client: dlock.Client, name: str) -> None:
    semaphore = client.permit_expirable_semaphore(name)
    semaphore.try_set_permits(1)

    async def main() -> None:
        async with semaphore as permit:
            assert semaphore.available_permits() == 0
            assert len(permit.id) == 32
            waiter = asyncio.ensure_future(semaphore.acquire_async())
            await asyncio.sleep(0.2)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        assert semaphore.available_permits() == 1
        taken = await semaphore.acquire_async(timeout=1)
        assert taken is not None
        async with taken:
            pass

    asyncio.run(main())
    assert semaphore.available_permits() == 1


def test_permit_bad_input(client: dlock.Client, name: str) -> None:
    semaphore = client.permit_expirable_semaphore(name)
    with pytest.raises(dlock.InvalidArgumentError, match="lease"):
        semaphore.acquire(lease=0)
    with pytest.raises(dlock.InvalidArgumentError, match="permit_id"):
        semaphore.release("not-an-id")
    with pytest.raises(TypeError, match="permit_id"):
        semaphore.release(7)  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError, match="permits"):
        semaphore.try_set_permits(-1)
    with pytest.raises(TypeError, match="on_lost"):
        client.permit_expirable_semaphore(name, on_lost=3)  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError, match="name"):
        client.permit_expirable_semaphore("{x}")


WORKER = textwrap.dedent(
    """
    import json, os, sys, time
    import dlock

    with dlock.Client(sys.argv[1]) as client:
        semaphore = client.permit_expirable_semaphore(sys.argv[2])
        semaphore.try_set_permits(int(sys.argv[3]))
        for _ in range(int(sys.argv[4])):
            with semaphore:
                start = time.monotonic()
                time.sleep(0.002)
                print(json.dumps([os.getpid(), start, time.monotonic()]), flush=True)
    """
)


def test_processes_never_hold_more_than_n_permits(redis_server: RedisServer, name: str) -> None:
    permits, cycles = 2, 30
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, redis_server.url, name, str(permits), str(cycles)],
            stdout=subprocess.PIPE, text=True,
        )
        for _ in range(4)
    ]
    edges = []
    for worker in workers:
        output, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0
        for line in output.splitlines():
            _, start, end = json.loads(line)
            edges += [(start, 1), (end, -1)]
    assert len(edges) == 2 * 4 * cycles
    inside = most = 0
    for _, step in sorted(edges):
        inside += step
        most = max(most, inside)
    assert most <= permits, f"{most} holders at once with {permits} permits"
    assert most == permits, "the permits were never all in use: the run proves nothing"


# --- count-down latch --------------------------------------------------------------------


def test_latch_counts_down_and_wakes_waiters(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    latch = client.count_down_latch(name)
    assert latch.count == 0
    assert latch.try_set_count(2)
    assert not latch.try_set_count(5)
    assert raw.get(name) == "2"
    assert not latch.wait(timeout=0.1)
    latch.count_down()
    assert latch.count == 1
    counter = threading.Timer(0.3, other_client.count_down_latch(name).count_down)
    counter.start()
    started = time.monotonic()
    assert latch.wait(timeout=5)
    assert time.monotonic() - started < 1.5
    assert not raw.exists(name)
    counter.join()


def test_latch_wait_async(client: dlock.Client, name: str) -> None:
    latch = client.count_down_latch(name)
    latch.try_set_count(1)

    async def main() -> None:
        waiter = asyncio.ensure_future(latch.wait_async(timeout=5))
        await asyncio.sleep(0.2)
        assert not waiter.done()
        latch.count_down()
        assert await waiter
        latch.try_set_count(1)
        cancelled = asyncio.ensure_future(latch.wait_async())
        await asyncio.sleep(0.1)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled

    asyncio.run(main())


def test_a_latch_wiped_by_a_restart_is_lost_not_open(name: str) -> None:
    # Its own server: the restart (without persistence) wipes every key.
    with RedisServer() as server, dlock.Client(server.url) as client:
        latch = client.count_down_latch(name)
        latch.try_set_count(3)
        outcome: list[object] = []
        waiter = threading.Thread(target=lambda: outcome.append(_wait_outcome(latch)))
        waiter.start()
        time.sleep(0.3)
        server.restart()
        waiter.join(timeout=10)
        assert not waiter.is_alive(), "the waiter slept on"
        assert isinstance(outcome[0], dlock.LatchLostError), outcome
        assert isinstance(outcome[0], dlock.LockLostError)
        semaphore = client.semaphore(name + "-permits")
        assert semaphore.try_set_permits(2)
        assert semaphore.acquire(timeout=0)
        server.restart()
        with pytest.raises(dlock.LockLostError, match="vanished"):
            semaphore.release()
        assert semaphore.try_set_permits(2), "the vanished semaphore could not be set again"
        assert semaphore.available_permits() == 2


def _wait_outcome(latch: dlock.CountDownLatch) -> object:
    try:
        return latch.wait(timeout=20)
    except dlock.DlockError as error:
        return error


def test_latch_bad_input(client: dlock.Client, name: str) -> None:
    latch = client.count_down_latch(name)
    with pytest.raises(dlock.InvalidArgumentError, match="count"):
        latch.try_set_count(0)
    with pytest.raises(TypeError, match="count"):
        latch.try_set_count(1.5)  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError, match="name"):
        client.count_down_latch("a" * (dlock._dlock.NAME_MAX + 1))


# --- Ctrl-C ------------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import signal, sys, time
    import dlock

    signal.signal(signal.SIGINT, signal.default_int_handler)
    client = dlock.Client(sys.argv[1])
    waits = {
        "semaphore": lambda: client.semaphore(sys.argv[3]).acquire(),
        "permit": lambda: client.permit_expirable_semaphore(sys.argv[3]).acquire(),
        "latch": lambda: client.count_down_latch(sys.argv[3]).wait(),
    }
    print("waiting", flush=True)
    try:
        waits[sys.argv[2]]()
        print("done", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted {time.monotonic()!r}", flush=True)
    """
)


@pytest.mark.parametrize("kind", ["semaphore", "permit", "latch"])
def test_ctrl_c_interrupts_a_wait(
    redis_server: RedisServer, client: dlock.Client, name: str, kind: str
) -> None:
    client.count_down_latch(name + "-latch").try_set_count(1)
    target = name + "-latch" if kind == "latch" else name
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, redis_server.url, kind, target],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert read_line(child).strip() == "waiting"
        time.sleep(0.5)
        sent_at = time.monotonic()
        child.send_signal(signal.SIGINT)
        word, interrupted_at = read_line(child).split()
        assert word == "interrupted"
        assert float(interrupted_at) - sent_at < 0.1
    finally:
        child.kill()
        child.wait()
