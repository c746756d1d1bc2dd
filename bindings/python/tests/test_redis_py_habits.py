"""What redis-py's Lock users reach for: timeout= (refused: it means the lease there),
extend(), owned(), thread_local=False, and a quick failure on a closed port."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
import redis

import dlock


def test_timeout_keyword_is_refused_and_says_what_to_use(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    with pytest.raises(TypeError, match="lease=.*blocking_timeout=") as caught:
        client.lock(name, timeout=5)  # type: ignore[arg-type]
    assert "ambiguous" in str(caught.value)
    with pytest.raises(TypeError, match="lease=.*blocking_timeout="):
        client.synchronized(name, timeout=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'sleep'"):
        client.lock(name, sleep=0.1)  # type: ignore[arg-type]
    assert not raw.exists(name)


def test_blocking_timeout_bounds_async_with(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    async def enter() -> None:
        async with client.lock(name, blocking_timeout=0.2):
            pytest.fail("entered a held lock")

    with other_client.lock(name):
        started = time.monotonic()
        with pytest.raises(dlock.LockTimeoutError, match="within 0.2 s"):
            asyncio.run(enter())
        assert 0.15 < time.monotonic() - started < 2


def test_extend_sets_the_remaining_lease(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    lock = client.lock(name, lease=1)
    with lock:
        assert raw.pttl(name) <= 1000
        lock.extend(5)
        assert 4000 < raw.pttl(name) <= 5000
        time.sleep(1.2)  # past the first lease
        assert lock.owned() and raw.exists(name)
        lock.extend(0.5)  # shortens too: the lease is set, not added to
        assert raw.pttl(name) <= 500
    assert not raw.exists(name)


def test_extend_async_from_a_task(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    lock = client.lock(name, lease=1)

    async def main() -> int:
        async with lock:
            await lock.extend_async(5)
            return int(raw.pttl(name))

    assert 4000 < asyncio.run(main()) <= 5000


def test_extend_refusals(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    fixed = client.lock(name, lease=10)
    with pytest.raises(dlock.LockNotOwnedError):
        fixed.extend(5)
    with pytest.raises(dlock.InvalidArgumentError, match="seconds"):
        fixed.extend(0)
    with pytest.raises(TypeError, match="^seconds: must be "):
        fixed.extend("5")  # type: ignore[arg-type]
    with client.lock(name):  # the watchdog renews this hold: there is nothing to extend
        with pytest.raises(dlock.InvalidArgumentError):
            client.lock(name).extend(5)
    fixed.acquire()
    other_client.lock(name).force_release()
    with pytest.raises(dlock.LockLostError):
        fixed.extend(5)
    assert not fixed.owned()
    with pytest.raises(dlock.LockLostError):  # as for any lost hold, release ends it
        fixed.release()
    assert fixed.hold_count == 0


def test_owned_is_about_the_caller(client: dlock.Client, name: str) -> None:
    lock = client.lock(name, lease=0.3)
    assert not lock.owned()
    lock.acquire()
    assert lock.owned()
    in_thread: list[bool] = []
    thread = threading.Thread(target=lambda: in_thread.append(lock.owned()))
    thread.start()
    thread.join()
    assert in_thread == [False]
    time.sleep(0.5)  # the fixed lease ran out
    assert not lock.owned()
    with pytest.raises(dlock.LockLostError):
        lock.release()


def test_thread_local_false_hands_a_hold_between_threads(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    lock = client.lock(name, thread_local=False)
    assert lock.acquire()
    outcome: list[object] = []

    def other_thread() -> None:
        outcome.append(lock.owned())
        outcome.append(lock.acquire(blocking=False))  # re-enters the object's hold
        outcome.append(lock.hold_count)
        lock.release()
        lock.release()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert outcome == [True, True, 2]
    assert not raw.exists(name)
    assert not lock.owned()


def test_thread_local_false_hands_a_hold_between_tasks(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    lock = client.lock(name, thread_local=False)

    async def take() -> int:
        assert await lock.acquire_async()
        return lock.fencing_token

    async def give_back(token: int) -> None:
        assert lock.owned() and lock.fencing_token == token
        await lock.release_async()

    async def main() -> None:
        token = await asyncio.create_task(take())
        assert raw.exists(name)
        await asyncio.create_task(give_back(token))

    asyncio.run(main())
    assert not raw.exists(name)


def test_objects_with_their_own_owner_exclude_each_other(
    client: dlock.Client, name: str
) -> None:
    first = client.lock(name, thread_local=False)
    second = client.lock(name, thread_local=False)
    with first:
        assert not second.acquire(blocking=False)
        assert not client.lock(name).acquire(blocking=False)  # nor the thread's own
        with pytest.raises(dlock.LockNotOwnedError):
            second.release()


def test_a_refused_connection_fails_at_once() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(dlock.ConnectionError):
        dlock.Client(f"redis://127.0.0.1:{closed_port}")  # default 3 s command timeout
    assert time.monotonic() - started < 0.5
