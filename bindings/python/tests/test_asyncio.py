"""async with: ownership per task, an event loop that never waits on Redis (not even a
stalled one), clean cancellation."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import threading
import time
from typing import Awaitable, Callable, Iterator

import pytest
import redis

import dlock
from checker import Section, assert_exclusive
from redis_server import RedisServer
from stalled_redis import StallableRedis

# Far above a loop iteration on a loaded machine, far below the command timeout (3 s)
# that a round trip to a stalled server takes.
MAX_LOOP_GAP = 0.5


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


async def _max_gap_while(work: Awaitable[object]) -> float:
    """The longest the event loop went without running a task that ticks every 10 ms,
    while ``work`` runs."""
    gaps = [0.0]

    async def heartbeat() -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    beating = asyncio.create_task(heartbeat())
    await asyncio.sleep(0.05)
    try:
        await work
    finally:
        beating.cancel()
    return max(gaps)


@pytest.fixture
def stallable() -> Iterator[StallableRedis]:
    with StallableRedis() as server:
        yield server


def test_a_stalled_redis_never_blocks_the_loop_in_acquire(
    stallable: StallableRedis, name: str
) -> None:
    with dlock.Client(stallable.url) as client:
        lock = client.lock(name)
        held_inside: list[bool] = []

        async def enter() -> None:
            async with lock:
                held_inside.append(lock.held)

        async def main() -> float:
            with stallable.stalled_for(0.5):
                return await _max_gap_while(enter())

        assert asyncio.run(main()) < MAX_LOOP_GAP
        assert held_inside == [True]
        assert not stallable.client().exists(name)


def test_a_stalled_redis_never_blocks_the_loop_in_release(
    stallable: StallableRedis, name: str
) -> None:
    with dlock.Client(stallable.url) as client:
        lock = client.lock(name)
        leaving_took: list[float] = []

        async def leave() -> None:
            async with lock:
                stallable.stall()
                threading.Timer(0.5, stallable.resume).start()
                leaving = time.monotonic()
            leaving_took.append(time.monotonic() - leaving)

        async def main() -> float:
            try:
                return await _max_gap_while(leave())
            finally:
                stallable.resume()

        assert asyncio.run(main()) < MAX_LOOP_GAP
        assert leaving_took[0] >= 0.4  # the release did wait for the stalled server
        assert not stallable.client().exists(name)


def test_no_loop_callback_waits_on_redis(stallable: StallableRedis, name: str) -> None:
    """asyncio's own slow-callback detector, while Redis stalls again and again under
    8 contending tasks: a round trip in the loop would take a stall's length."""
    slow = _SlowCallbacks()
    logging.getLogger("asyncio").addHandler(slow)
    try:
        with dlock.Client(stallable.url) as client:
            lock = client.lock(name)
            sections: list[Section] = []

            async def worker(index: int, until: float) -> None:
                while time.monotonic() < until:
                    async with lock:
                        start = time.monotonic()
                        await asyncio.sleep(0.001)
                        sections.append(
                            Section(lock.fencing_token, f"task-{index}", start, time.monotonic())
                        )

            async def main() -> None:
                loop = asyncio.get_running_loop()
                loop.slow_callback_duration = MAX_LOOP_GAP
                until = time.monotonic() + 1.5
                with stallable.stalling_repeatedly(every=0.35, for_=0.25):
                    await asyncio.gather(*(worker(index, until) for index in range(8)))

            asyncio.run(main(), debug=True)
            assert len(sections) >= 8
            assert_exclusive(sections, expected=len(sections))
    finally:
        logging.getLogger("asyncio").removeHandler(slow)
    assert stallable.stalls >= 3, "Redis never stalled: the test proves nothing"
    assert slow.records == []


class _SlowCallbacks(logging.Handler):
    """Collects asyncio's debug-mode reports of callbacks that held the loop too long."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "took" in message:
            self.records.append(message)


@pytest.mark.parametrize("cancelled", ["before the grant reaches the loop", "after it did"])
def test_a_grant_that_wins_the_race_with_cancellation_is_released(
    client: dlock.Client, raw: redis.Redis, name: str, cancelled: str
) -> None:
    lock = client.lock(name)

    async def main() -> None:
        waiter = asyncio.create_task(lock.acquire_async())
        await asyncio.sleep(0)  # the task asks
        _wait_until(lambda: bool(raw.exists(name)))  # granted, while the loop is held here
        time.sleep(0.05)  # the grant's report is on the loop's queue by now
        if cancelled == "before the grant reaches the loop":
            waiter.cancel()
        else:
            asyncio.get_running_loop().call_soon(waiter.cancel)  # after the report runs
        with pytest.raises(asyncio.CancelledError):
            await waiter
        # The next task gets the lock: nothing was left held behind the cancelled one.
        async with client.lock(name, blocking_timeout=2):
            assert raw.exists(name)

    asyncio.run(main())
    assert not raw.exists(name)


def test_cancellation_mid_wait_leaves_the_lock_to_the_next_task(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = other_client.lock(name, thread_local=False)  # released from a task below
    holder.acquire()
    lock = client.lock(name, blocking_timeout=5)

    async def enter() -> None:
        async with lock:
            pytest.fail("entered although cancelled")

    async def main() -> int:
        waiter = asyncio.create_task(enter())
        await asyncio.sleep(0.2)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        holder.release()
        async with lock:
            return lock.hold_count

    assert asyncio.run(main()) == 1
    assert not raw.exists(name)


def test_a_grant_arriving_after_its_loop_closed_is_released(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = other_client.lock(name)
    holder.acquire()
    holder_token = holder.fencing_token
    loop = asyncio.new_event_loop()
    waiter = loop.create_task(client.lock(name).acquire_async())
    loop.run_until_complete(asyncio.sleep(0.2))
    loop.close()  # the waiting task is left pending
    holder.release()
    # The abandoned task is granted the lock (a new token is issued); unless that grant is
    # released again, the watchdog keeps it and this wait runs out.
    token_key = f"redisson_lock_token:{{{name}}}"
    _wait_until(lambda: int(raw.get(token_key) or 0) > holder_token)
    abandoned_token = int(raw.get(token_key))
    after = other_client.lock(name)
    assert after.acquire(timeout=5)
    assert after.fencing_token > abandoned_token
    after.release()
    del waiter
    gc.collect()


def test_release_async_and_its_errors(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    lock = client.lock(name)

    async def main() -> None:
        assert await lock.acquire_async()
        assert await lock.acquire_async()
        await lock.release_async()
        assert raw.exists(name) and lock.hold_count == 1
        await lock.release_async()
        assert not raw.exists(name)
        with pytest.raises(dlock.LockNotOwnedError):
            await lock.release_async()

    asyncio.run(main())


def _wait_until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.005)


def test_closing_the_client_ends_a_waiting_task(
    redis_server: RedisServer, other_client: dlock.Client, name: str
) -> None:
    holder = other_client.lock(name)
    holder.acquire()
    client = dlock.Client(redis_server.url)

    async def main() -> None:
        waiter = asyncio.create_task(client.lock(name).acquire_async())
        await asyncio.sleep(0.2)
        client.close()
        with pytest.raises(dlock.ClientClosedError):
            await asyncio.wait_for(waiter, 2)

    asyncio.run(main())
    holder.release()
