"""Every primitive's asyncio wait runs on the event loop through the C library's
asynchronous call: no thread per waiter, granted, timed out and cancelled alike."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Optional

import pytest

import dlock
from thread_counts import settled_threads


class Blocked:
    """One primitive made unavailable by the test's main task, and a wait on it that a
    task makes: ``wait(timeout)`` is True once granted (the grant given back) and False
    when the time ran out; ``let_go()`` makes it available again."""

    def __init__(
        self,
        hold: Callable[[], object],
        wait: Callable[[Optional[float]], Awaitable[Any]],
        let_go: Callable[[], object],
        give_back: Callable[[Any], object] = lambda granted: None,
    ) -> None:
        self.hold = hold
        self.let_go = let_go
        self._wait = wait
        self._give_back = give_back

    async def wait(self, timeout: Optional[float]) -> bool:
        granted = await self._wait(timeout)
        if not granted:
            return False
        self._give_back(granted)
        return True


def lock_timeout(timeout: Optional[float]) -> float:
    """A lock's ``timeout`` (-1: forever) for a wait's (None: forever)."""
    return -1 if timeout is None else timeout


def semaphore(client: dlock.Client, name: str) -> Blocked:
    made = client.semaphore(name)
    made.try_set_permits(1)
    return Blocked(made.acquire, lambda timeout: made.acquire_async(timeout), made.release,
                   lambda granted: made.release())


def permit_semaphore(client: dlock.Client, name: str) -> Blocked:
    made = client.permit_expirable_semaphore(name)
    made.try_set_permits(1)
    held: list[dlock.Permit] = []

    def hold() -> None:
        permit = made.acquire()
        assert permit is not None
        held.append(permit)

    return Blocked(hold, lambda timeout: made.acquire_async(timeout), lambda: held.pop().release(),
                   lambda permit: permit.release())


def latch(client: dlock.Client, name: str) -> Blocked:
    made = client.count_down_latch(name)
    return Blocked(lambda: made.try_set_count(1), lambda timeout: made.wait_async(timeout), made.count_down)


def lock_side(held: dlock.Lock, waited: dlock.Lock) -> Blocked:
    return Blocked(
        held.acquire,
        lambda timeout: waited.acquire_async(timeout=lock_timeout(timeout)),
        held.release,
        lambda granted: waited.release(),
    )


def read_side(client: dlock.Client, name: str) -> Blocked:
    rw = client.read_write_lock(name)
    return lock_side(rw.write_lock(), rw.read_lock())


def write_side(client: dlock.Client, name: str) -> Blocked:
    rw = client.read_write_lock(name)
    return lock_side(rw.read_lock(), rw.write_lock())


def fair_lock(client: dlock.Client, name: str) -> Blocked:
    return lock_side(client.fair_lock(name), client.fair_lock(name))


def multilock(client: dlock.Client, name: str) -> Blocked:
    group = dlock.MultiLock(client.lock(name + "a"), client.lock(name + "b"))
    member = client.lock(name + "b")
    return Blocked(member.acquire, lambda timeout: group.acquire_async(timeout=lock_timeout(timeout)),
                   member.release, lambda granted: group.release())


PRIMITIVES = [semaphore, permit_semaphore, latch, read_side, write_side, fair_lock, multilock]


@pytest.fixture(params=PRIMITIVES, ids=[make.__name__ for make in PRIMITIVES])
def blocked(request: pytest.FixtureRequest, client: dlock.Client, name: str) -> Blocked:
    made: Blocked = request.param(client, name)
    return made


def redlock(clients: list[dlock.Client], name: str) -> Blocked:
    group = dlock.RedLock(*(client.lock(name) for client in clients))
    # A majority of the members held by someone else keeps the RedLock from anyone.
    members = [client.lock(name) for client in clients[:2]]

    def hold() -> None:
        for member in members:
            assert member.acquire()

    def let_go() -> None:
        for member in members:
            member.release()

    return Blocked(hold, lambda timeout: group.acquire_async(timeout=lock_timeout(timeout)), let_go,
                   lambda granted: group.release())


async def waiting_threads(blocked: Blocked, waiters: int) -> tuple[tuple[int, int], list[asyncio.Task[bool]]]:
    """Starts `waiters` waits (no timeout) on `blocked`; the thread counts once all wait."""
    tasks = [asyncio.ensure_future(blocked.wait(None)) for _ in range(waiters)]
    counted = await settled_threads()
    assert not any(task.done() for task in tasks)
    return counted, tasks


async def granted_timed_out_cancelled(blocked: Blocked) -> None:
    blocked.hold()
    # One waiter first: the client's async thread has started by then.
    one, first = await waiting_threads(blocked, 1)
    many, rest = await waiting_threads(blocked, 20)
    assert many <= one, "a waiter costs no thread"
    # Every wait in a task of its own: the main task holds, and a lock's holder re-enters.
    assert await asyncio.ensure_future(blocked.wait(0.2)) is False
    cancelled = asyncio.ensure_future(blocked.wait(None))
    await asyncio.sleep(0.1)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    blocked.let_go()
    assert await asyncio.wait_for(asyncio.gather(*first, *rest), timeout=30) == [True] * 21
    # The cancelled wait left nothing held behind it.
    assert await asyncio.ensure_future(blocked.wait(5)) is True


def test_async_waits_are_granted_time_out_and_cancel_without_a_thread(blocked: Blocked) -> None:
    asyncio.run(granted_timed_out_cancelled(blocked))


def test_redlock_async_waits_are_granted_time_out_and_cancel_without_a_thread(
    three_clients: list[dlock.Client], name: str
) -> None:
    asyncio.run(granted_timed_out_cancelled(redlock(three_clients, name)))


def test_a_thousand_tasks_wait_on_a_semaphore_with_the_threads_of_one(client: dlock.Client, name: str) -> None:
    semaphore = client.semaphore(name)
    semaphore.try_set_permits(1)
    passes = 0

    async def take_and_give_back() -> None:
        nonlocal passes
        async with semaphore:
            passes += 1

    async def main() -> None:
        assert semaphore.acquire()
        first = asyncio.ensure_future(take_and_give_back())
        with_one = await settled_threads()
        rest = [asyncio.ensure_future(take_and_give_back()) for _ in range(999)]
        with_thousand = await settled_threads()
        assert passes == 0
        assert with_thousand <= with_one, f"1,000 waiters {with_thousand} threads, one {with_one}"
        started = time.monotonic()
        semaphore.release()
        await asyncio.wait_for(asyncio.gather(first, *rest), timeout=120)
        print(f"threads (python, process) with one waiter {with_one}, with 1,000 {with_thousand}; "
              f"1,000 passes in {time.monotonic() - started:.2f} s")

    asyncio.run(main())
    assert passes == 1000
    assert semaphore.available_permits() == 1
