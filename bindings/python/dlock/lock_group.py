"""MultiLock and RedLock: one lock over several :class:`dlock.Lock` objects.

``MultiLock(a, b, c)`` holds every member or none (Redisson's RedissonMultiLock); the
members may come from one client or several, and are taken in a canonical order, so two
MultiLocks over overlapping sets never deadlock. ``RedLock(a, b, c, ...)`` holds a majority
of N >= 3 members on N independent servers (locks from clients of different URLs), with a
validity shorter than the lease; it gives no fencing token. See docs/multilock-redlock.md.

Owned per thread, or per asyncio task in one, as Lock is. ``async with`` and
:meth:`acquire_async` wait on the event loop through the C library's asynchronous group
acquire, without a thread, cancelled with the task; the event loop never waits on Redis.
"""

from __future__ import annotations

import asyncio
from typing import Callable, Optional

from dlock import _dlock, timeouts
from dlock.arguments import require_callable_or_none
from dlock.blocks import HeldInBlocks
from dlock.in_greenlet import running_hub, wait_in_greenlet
from dlock.in_task import wait_in_task
from dlock.lock import Lock
from dlock.native_calls import NativeWait, give_back_in_thread
from dlock.owner import current_owner
from dlock.waiting import wait_in_thread

GroupLostCallback = Callable[[str, int], object]


class _LockGroup(HeldInBlocks):
    _MAJORITY = False
    _KIND = ""

    __slots__ = ("_members", "_native", "_lease_ms", "_blocking_timeout")

    def __init__(
        self,
        *locks: Lock,
        lease: float | None = None,
        blocking_timeout: float = -1,
        on_lost: Optional[GroupLostCallback] = None,
    ) -> None:
        for index, lock in enumerate(locks):
            if not isinstance(lock, Lock):
                raise TypeError(f"locks[{index}]: must be a dlock.Lock, got {type(lock).__name__}")
        timeouts.wait_ms(True, blocking_timeout, "blocking_timeout")
        require_callable_or_none(on_lost, "on_lost")
        self._lease_ms = timeouts.lease_ms(lease)
        self._blocking_timeout = blocking_timeout
        self._members = locks
        relay = None if on_lost is None else _LostRelay(on_lost)
        self._native = _dlock.LockGroup([lock._shared.native for lock in locks], self._MAJORITY, relay)

    @property
    def names(self) -> list[str]:
        return [lock.name for lock in self._members]

    def _lease(self, lease: float | None) -> int:
        return self._lease_ms if lease is None else timeouts.lease_ms(lease)

    def acquire(self, blocking: bool = True, timeout: float = -1, lease: float | None = None) -> bool:
        """Takes the group for the calling thread (or task), waiting at most ``timeout``
        seconds (-1: forever); False if it could not, holding nothing then. ``lease``: None
        keeps the one given at construction (None there: the watchdog renews every member).
        The wait releases the GIL and never polls; in the main thread Ctrl-C ends it. Under
        gevent or eventlet it yields to the hub."""
        wait_ms = timeouts.wait_ms(blocking, timeout)
        lease_ms = self._lease(lease)
        owner = current_owner()
        hub = running_hub()
        if hub is not None:
            return wait_in_greenlet(hub, self._wait(owner, wait_ms, lease_ms)) is not None
        granted = self._native.acquire(owner, 0, lease_ms)
        if granted is None and wait_ms != 0:
            granted = wait_in_thread(self._native, owner, wait_ms, lease_ms)
        return granted is not None

    async def acquire_async(
        self, blocking: bool = True, timeout: float = -1, lease: float | None = None
    ) -> bool:
        """As :meth:`acquire`, for the current task, on the event loop without blocking it
        and without a thread. Cancelling the task cancels the wait, and a grant that won the
        race with the cancellation is released again."""
        wait_ms = timeouts.wait_ms(blocking, timeout)
        granted = await wait_in_task(self._wait(current_owner(), wait_ms, self._lease(lease)))
        return granted is not None

    def _wait(self, owner: int, wait_ms: int, lease_ms: int) -> NativeWait:
        return NativeWait(
            lambda cancel, done: self._native.acquire_async(owner, wait_ms, lease_ms, cancel, done),
            lambda granted: give_back_in_thread(lambda: self._native.release(owner)),
        )

    def release(self) -> None:
        """Releases one hold of the caller; LockNotOwnedError (a RuntimeError) when it holds
        none, LockLostError when the hold had been lost (the members still held are released
        all the same)."""
        self._native.release(current_owner())

    async def release_async(self) -> None:
        owner = current_owner()
        await asyncio.get_running_loop().run_in_executor(None, self._native.release, owner)

    @property
    def hold_count(self) -> int:
        """The caller's number of holds of the group (0 when none)."""
        return self._native.hold_count(current_owner())

    @property
    def held(self) -> bool:
        """Whether the caller holds the group and its hold is still valid: False once a
        member is lost (a RedLock: a majority), or a fixed lease or the validity ran out,
        as :attr:`Lock.held`."""
        return self._native.is_held(current_owner())

    def _describe(self) -> str:
        return f"{self._KIND} {','.join(self.names)!r}"

    def __repr__(self) -> str:
        return f"<dlock.{self._KIND} {self.names!r}>"


class _LostRelay:
    """The native callback's (name, owner, token) as on_lost(name, 0): a group has no token."""

    __slots__ = ("_on_lost",)

    def __init__(self, on_lost: GroupLostCallback) -> None:
        self._on_lost = on_lost

    def __call__(self, name: str, owner: int, token: int) -> None:
        self._on_lost(name, 0)


class MultiLock(_LockGroup):
    """Every member or none: ``MultiLock(client.lock("a"), client.lock("b"))``.

    A failed attempt lets go of what it took before it waits (for a release message of the
    member that refused), so no member stays held by a caller that does not hold them all.
    Re-entrant: the owner's second acquire re-enters each member. A member lost is the
    MultiLock lost: ``on_lost(names, 0)`` once, LockLostError from release."""

    __slots__ = ()
    _KIND = "MultiLock"


class RedLock(_LockGroup):
    """A majority of N >= 3 locks on N independent servers (Redis's RedLock algorithm):
    ``RedLock(c1.lock("job"), c2.lock("job"), c3.lock("job"))``.

    A grant is valid for ``lease - elapsed - drift`` (see :attr:`validity`); with the
    watchdog (lease None) every member is renewed, and the RedLock is reported lost once
    fewer than a majority stay held. No fencing token: see docs/multilock-redlock.md."""

    __slots__ = ()
    _MAJORITY = True
    _KIND = "RedLock"

    @property
    def validity(self) -> float:
        """Seconds the caller's hold is still valid, never longer than the servers' leases
        (0.0 when it holds nothing or the hold was lost)."""
        return self._native.validity_ms(current_owner()) / 1000.0
