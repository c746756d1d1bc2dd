"""async with: ownership per task, waits that leave the event loop running, clean cancellation."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
import redis

import dlock
from checker import Section, assert_exclusive


def test_tasks_contending_on_one_loop_are_exclusive(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    sections: list[Section] = []

    async def worker(index: int) -> None:
        for _ in range(10):
            async with lock:
                start = time.monotonic()
                await asyncio.sleep(0.001)  # lets the other tasks run and try
                sections.append(Section(lock.fencing_token, f"task-{index}", start, time.monotonic()))

    async def main() -> None:
        await asyncio.gather(*(worker(index) for index in range(8)))

    asyncio.run(main())
    assert_exclusive(sections, expected=80)


def test_ownership_is_per_task(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)

    async def other_task() -> tuple[bool, BaseException | None]:
        acquired = await lock.acquire_async(blocking=False)
        try:
            lock.release()
        except RuntimeError as error:
            return acquired, error
        return acquired, None

    async def main() -> None:
        async with lock:
            assert lock.hold_count == 1
            acquired, error = await asyncio.create_task(other_task())
            assert acquired is False
            assert isinstance(error, dlock.LockNotOwnedError)
            assert await lock.acquire_async()  # the holding task re-enters
            assert lock.hold_count == 2
            lock.release()
        assert lock.hold_count == 0

    asyncio.run(main())


def test_waiting_never_blocks_the_event_loop(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    holder = other_client.lock(name)
    holder.acquire()
    ticks = 0

    async def heartbeat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    async def main() -> bool:
        beating = asyncio.create_task(heartbeat())
        loop = asyncio.get_running_loop()
        loop.call_later(0.5, holder.release)
        acquired = await client.lock(name).acquire_async(timeout=10)
        beating.cancel()
        return acquired

    lock_obtained = asyncio.run(main())
    assert lock_obtained
    assert ticks >= 20  # ~50 expected over the 0.5 s wait


def test_bounded_wait_returns_false(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    holder = other_client.lock(name)
    holder.acquire()
    assert asyncio.run(client.lock(name).acquire_async(timeout=0.2)) is False
    holder.release()


def test_cancelled_wait_is_abandoned_cleanly(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = other_client.lock(name)
    holder.acquire()
    lock = client.lock(name)

    async def main() -> None:
        waiter = asyncio.create_task(lock.acquire_async())
        await asyncio.sleep(0.2)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter

    asyncio.run(main())
    holder.release()
    time.sleep(0.3)  # a wait that survived its cancellation would take the lock now
    assert not raw.exists(name)


def test_repeated_cancellation_leaves_nothing_behind(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    """Cancels land before, during and after grants; no hold may outlive its task."""
    holder = other_client.lock(name)
    lock = client.lock(name)

    # A waiter releases from the task that acquired, so each waiter lives in a task.
    async def scenario() -> None:
        for round_index in range(30):
            holder.acquire()

            async def waiter_task() -> None:
                if await lock.acquire_async():
                    lock.release()

            waiter = asyncio.create_task(waiter_task())
            await asyncio.sleep(0.001 * (round_index % 5))
            holder.release()
            await asyncio.sleep(0.001 * (round_index % 3))
            waiter.cancel()
            try:
                await waiter
            except asyncio.CancelledError:
                pass

    asyncio.run(scenario())
    time.sleep(0.3)
    assert not raw.exists(name)


def test_synchronized_coroutine(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    @client.synchronized(name)
    async def guarded() -> int:
        assert raw.exists(name)
        return os.getpid()

    assert asyncio.run(guarded()) == os.getpid()
    assert not raw.exists(name)
