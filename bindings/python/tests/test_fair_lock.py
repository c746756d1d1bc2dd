"""client.fair_lock(name): the lock's object shape, served first come, first served."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
import redis

import dlock
from polling import eventually


def _queue(name: str) -> str:
    return f"dlock_fair_queue:{{{name}}}"



def test_acquire_release_reentry_and_with(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    lock = client.fair_lock(name)
    assert lock.acquire()
    token = lock.fencing_token
    assert lock.acquire(blocking=False) and lock.hold_count == 2
    assert lock.fencing_token == token
    lock.release()
    lock.release()
    assert not raw.exists(name)
    with lock as entered:
        assert entered is lock and lock.held
        assert lock.fencing_token > token
        assert list(raw.hgetall(name).values()) == ["1"]  # Redisson's RLock hash
    assert not lock.locked()


def test_waiters_are_served_in_arrival_order(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = client.fair_lock(name)
    assert holder.acquire()
    order: list[int] = []
    threads = []
    for index in range(5):
        waiter = other_client.fair_lock(name)

        def wait_turn(index: int = index, waiter: dlock.Lock = waiter) -> None:
            with waiter:
                order.append(index)
                time.sleep(0.02)

        thread = threading.Thread(target=wait_turn)
        thread.start()
        threads.append(thread)
        assert eventually(lambda: raw.zcard(_queue(name)) == index + 1)
    holder.release()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4]
    assert not raw.exists(_queue(name))


def test_a_passer_by_does_not_jump_the_queue(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder, waiter, passer_by = (
        client.fair_lock(name),
        other_client.fair_lock(name),
        other_client.fair_lock(name, thread_local=False),
    )
    assert holder.acquire()
    got = threading.Event()

    def wait() -> None:
        with waiter:
            got.set()
            time.sleep(0.2)

    thread = threading.Thread(target=wait)
    thread.start()
    assert eventually(lambda: raw.zcard(_queue(name)) == 1)
    holder.force_release()  # free, with somebody waiting
    assert not passer_by.acquire(blocking=False)
    assert got.wait(3)
    thread.join(5)


def test_bounded_wait_gives_up_and_leaves_the_queue(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    with client.fair_lock(name):
        started = time.monotonic()
        assert not other_client.fair_lock(name).acquire(timeout=0.3)
        assert 0.29 <= time.monotonic() - started < 1.5
        assert eventually(lambda: not raw.exists(_queue(name)), timeout=0.3)


def test_excludes_the_reentrant_lock_on_the_same_name(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with client.fair_lock(name):
        assert not other_client.lock(name).acquire(blocking=False)
    with other_client.lock(name):
        assert not client.fair_lock(name).acquire(blocking=False)


def test_async_with_serves_tasks_in_order(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    async def main() -> list[int]:
        order: list[int] = []
        holder = client.fair_lock(name)
        await holder.__aenter__()

        async def task(index: int) -> None:
            async with client.fair_lock(name):
                order.append(index)

        tasks = []
        for index in range(3):
            tasks.append(asyncio.create_task(task(index)))
            while raw.zcard(_queue(name)) < index + 1:
                await asyncio.sleep(0.005)
        await holder.__aexit__(None, None, None)
        await asyncio.gather(*tasks)
        return order

    assert asyncio.run(main()) == [0, 1, 2]


def test_a_cancelled_task_leaves_the_queue(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    async def main() -> None:
        with client.fair_lock(name):
            task = asyncio.create_task(other_client.fair_lock(name).__aenter__())
            while raw.zcard(_queue(name)) < 1:
                await asyncio.sleep(0.005)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert eventually(lambda: raw.zcard(_queue(name)) == 0, timeout=0.5)

    asyncio.run(main())


@pytest.mark.parametrize("bad", ["", "a}b", "{x}", "x" * 2000])
def test_bad_names_are_refused(client: dlock.Client, bad: str) -> None:
    with pytest.raises(dlock.DlockError, match="name"):
        client.fair_lock(bad).acquire(blocking=False)


def test_bad_arguments_are_refused(client: dlock.Client, name: str) -> None:
    with pytest.raises(TypeError):
        client.fair_lock(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        client.fair_lock(name, timeout=3)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        client.fair_lock(name, lease=-2).acquire()
    with pytest.raises(RuntimeError):
        client.fair_lock(name).release()
