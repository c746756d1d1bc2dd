"""MultiLock and RedLock: acquire and release, with / async with, contention between
processes judged by the checker, loss, and bad input."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import textwrap
import threading
import time
from typing import Callable

import pytest
import redis

import dlock
from checker import Section, assert_exclusive
from redis_server import RedisServer


def holders(servers: list[RedisServer], name: str) -> int:
    return sum(redis.Redis(port=server.port).exists(name) for server in servers)


def test_multilock_takes_every_member(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    group = dlock.MultiLock(client.lock(name + "a"), client.lock(name + "b"))
    assert group.acquire()
    assert raw.exists(name + "a") and raw.exists(name + "b")
    assert group.acquire(blocking=False)  # re-entrant
    assert group.hold_count == 2
    group.release()
    group.release()
    assert not raw.exists(name + "a") and not raw.exists(name + "b")
    with pytest.raises(dlock.LockNotOwnedError):
        group.release()


def test_multilock_is_all_or_nothing(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    busy = other_client.lock(name + "b")
    assert busy.acquire()
    group = dlock.MultiLock(client.lock(name + "a"), client.lock(name + "b"))
    assert not group.acquire(timeout=0.2)
    assert not raw.exists(name + "a")
    busy.release()
    with group:
        assert group.held
    assert not group.held


def test_multilock_wakes_on_a_members_release(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    busy = other_client.lock(name + "b", lease=30, thread_local=False)
    assert busy.acquire()
    group = dlock.MultiLock(client.lock(name + "a"), client.lock(name + "b"))
    threading.Timer(0.2, busy.release).start()
    started = time.monotonic()
    assert group.acquire(timeout=10)
    assert time.monotonic() - started < 2, "woken by the release message, not the lease"
    group.release()


def test_multilock_reports_a_lost_member(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    lost: list[str] = []
    with dlock.Client(client_url(raw), watchdog_timeout=0.6) as short:
        group = dlock.MultiLock(short.lock(name + "a"), short.lock(name + "b"), on_lost=lambda n, t: lost.append(n))
        assert group.acquire()
        raw.delete(name + "b")
        deadline = time.monotonic() + 3
        while not lost and time.monotonic() < deadline:
            time.sleep(0.02)
        assert lost == [f"{name}a,{name}b"]
        with pytest.raises(dlock.LockLostError):
            group.release()


def test_multilock_is_taken_again_after_a_lost_member(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    lost: list[str] = []
    with dlock.Client(client_url(raw), watchdog_timeout=0.6) as short:
        group = dlock.MultiLock(short.lock(name + "a"), short.lock(name + "b"), on_lost=lambda n, t: lost.append(n))
        assert group.acquire()
        assert other_client.lock(name + "b").force_release()
        deadline = time.monotonic() + 3
        while not lost and time.monotonic() < deadline:
            time.sleep(0.02)
        assert lost and not group.held
        with pytest.raises(dlock.LockLostError):
            group.release()
        assert group.acquire(blocking=False), "the owner takes the MultiLock again"
        assert group.held
        group.release()
        assert lost == [f"{name}a,{name}b"]
        assert not raw.exists(name + "a") and not raw.exists(name + "b")


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_groups_are_not_held_once_a_fixed_lease_runs_out(
    client: dlock.Client, three_clients: list[dlock.Client], name: str
) -> None:
    plain = client.lock(name + "plain", lease=0.3)
    multi = dlock.MultiLock(client.lock(name + "a"), client.lock(name + "b"), lease=0.3)
    red = dlock.RedLock(*(member.lock(name) for member in three_clients), lease=0.3)
    for lock in (plain, multi, red):
        assert lock.acquire()
        assert lock.held
    started = time.monotonic()
    for lock in (plain, multi, red):
        assert wait_for(lambda: not lock.held, 2), f"{lock!r} still held after its 0.3 s lease"
    assert time.monotonic() - started < 1
    assert multi.hold_count == 1 and red.hold_count == 1, "held no longer, still to be released"


def client_url(raw: redis.Redis) -> str:
    kwargs = raw.connection_pool.connection_kwargs
    return f"redis://127.0.0.1:{kwargs['port']}"


def test_redlock_acquires_a_majority(
    three_clients: list[dlock.Client], three_servers: list[RedisServer], name: str
) -> None:
    group = dlock.RedLock(*(client.lock(name) for client in three_clients), lease=10)
    with group:
        assert 9 < group.validity <= 10 - 0.102
        assert holders(three_servers, name) == 3
    assert group.validity == 0.0
    assert holders(three_servers, name) == 0


def test_redlock_async_with(three_clients: list[dlock.Client], three_servers: list[RedisServer], name: str) -> None:
    group = dlock.RedLock(*(client.lock(name) for client in three_clients))
    order: list[str] = []

    async def task(label: str) -> None:
        async with group:
            order.append(label + " in")
            await asyncio.sleep(0.05)
            order.append(label + " out")

    async def main() -> None:
        await asyncio.gather(task("a"), task("b"))

    asyncio.run(main())
    assert order in (["a in", "a out", "b in", "b out"], ["b in", "b out", "a in", "a out"])
    assert holders(three_servers, name) == 0


def test_async_cancel_leaves_nothing_held(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    busy = other_client.lock(name + "b")
    assert busy.acquire()
    group = dlock.MultiLock(client.lock(name + "a"), client.lock(name + "b"))

    async def main() -> None:
        waiting = asyncio.ensure_future(group.acquire_async())
        await asyncio.sleep(0.2)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(main())
    busy.release()
    time.sleep(0.3)
    assert not raw.exists(name + "a") and not raw.exists(name + "b")


def test_bad_input(client: dlock.Client, three_clients: list[dlock.Client], name: str) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match="count"):
        dlock.RedLock(three_clients[0].lock(name), three_clients[1].lock(name))
    with pytest.raises(dlock.InvalidArgumentError, match="same server"):
        dlock.RedLock(three_clients[0].lock(name), three_clients[1].lock(name), three_clients[1].lock(name + "x"))
    with pytest.raises(dlock.InvalidArgumentError, match=r"members\[1\]"):
        dlock.MultiLock(client.lock(name), client.lock(name))
    with pytest.raises(dlock.InvalidArgumentError, match="count"):
        dlock.MultiLock()
    with pytest.raises(TypeError, match=r"locks\[1\]"):
        dlock.MultiLock(client.lock(name), "b")  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError):
        dlock.MultiLock(client.lock(name), lease=0)


WORKER = textwrap.dedent(
    """
    import json, os, sys, time
    import redis
    import dlock

    kind, name, cycles, store_port, *urls = sys.argv[1:]
    store = redis.Redis(port=int(store_port))
    clients = [dlock.Client(url) for url in urls]
    if kind == "multi":
        group = dlock.MultiLock(clients[0].lock(name + "a"), clients[0].lock(name + "b"))
    else:
        group = dlock.RedLock(*(client.lock(name) for client in clients))
    for _ in range(int(cycles)):
        with group:
            start = time.monotonic()
            value = int(store.get(name + ":counter") or 0) + 1
            time.sleep(0.001)
            store.set(name + ":counter", value)
            print(json.dumps([value, os.getpid(), start, time.monotonic()]), flush=True)
    for client in clients:
        client.close()
    """
)


@pytest.mark.parametrize("kind", ["multi", "red"])
def test_processes_never_overlap(kind: str, three_servers: list[RedisServer], name: str) -> None:
    urls = [server.url for server in three_servers] if kind == "red" else [three_servers[0].url]
    cycles = 25
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, kind, name, str(cycles), str(three_servers[0].port), *urls],
            stdout=subprocess.PIPE, text=True,
        )
        for _ in range(3)
    ]
    sections = []
    for worker in workers:
        output, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0
        for line in output.splitlines():
            # The token: the store's counter as the section read it, rising only if
            # the sections took turns.
            value, pid, start, end = json.loads(line)
            sections.append(Section(value, str(pid), start, end))
    assert_exclusive(sections, expected=3 * cycles)


CTRL_C_CHILD = textwrap.dedent(
    """
    import signal, sys, time
    import dlock

    signal.signal(signal.SIGINT, signal.default_int_handler)
    client = dlock.Client(sys.argv[1])
    group = dlock.MultiLock(client.lock(sys.argv[2] + "a"), client.lock(sys.argv[2] + "b"))
    print("waiting", flush=True)
    try:
        group.acquire()
        print("acquired", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted {time.monotonic()!r} {group.hold_count}", flush=True)
    sys.stdin.readline()
    """
)


def test_ctrl_c_interrupts_a_group_wait(
    redis_server: RedisServer, client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = client.lock(name + "b")
    holder.acquire()
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD, redis_server.url, name],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "waiting"
        time.sleep(0.5)
        sent_at = time.monotonic()
        child.send_signal(signal.SIGINT)
        word, interrupted_at, hold_count = child.stdout.readline().split()
        assert word == "interrupted" and hold_count == "0"
        assert float(interrupted_at) - sent_at < 0.1
        holder.release()
        time.sleep(0.3)  # an abandoned wait that still ran would take both now
        assert not raw.exists(name + "a") and not raw.exists(name + "b")
    finally:
        child.kill()
        child.wait()
