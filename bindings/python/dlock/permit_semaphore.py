"""Leased permits (Redisson's RPermitExpirableSemaphore layout): each permit has an id and
a lease, renewed by the client's watchdog unless a fixed lease was asked for."""

from __future__ import annotations

import contextvars
from typing import Optional, Tuple

from dlock import _dlock, timeouts
from dlock.arguments import INT32, require_int, require_str
from dlock.blocking import call_in_thread, wait_interruptibly
from dlock.holding import Holding
from dlock.in_greenlet import running_hub, wait_in_greenlet
from dlock.in_task import wait_in_task
from dlock.native_calls import NativeWait, give_back_in_thread


class Permit(Holding["Permit"]):
    """One permit taken from a :class:`PermitExpirableSemaphore`: its ``id`` (32 hex
    digits, the id Redisson's ``release(id)`` takes too) and :meth:`release`. Usable as a
    context manager, which releases it on leaving the block."""

    __slots__ = ("_semaphore", "id")

    def __init__(self, semaphore: PermitExpirableSemaphore, permit_id: str) -> None:
        self._semaphore = semaphore
        self.id = permit_id

    def release(self) -> None:
        """Gives the permit back. Raises LockExpiredError (a LockLostError) when its fixed
        lease had run out as asked, LockLostError when it was lost otherwise (it went back to
        the pool meanwhile either way), LockNotOwnedError when it was released already."""
        self._semaphore.release(self.id)

    async def release_async(self) -> None:
        await call_in_thread(self.release)

    def _take(self) -> Permit:
        return self

    def _give_back(self) -> None:
        self.release()

    async def _take_async(self) -> Permit:
        return self

    async def _give_back_async(self) -> None:
        await self.release_async()

    def __repr__(self) -> str:
        return f"<dlock.Permit {self.id} of {self._semaphore.name!r}>"


class PermitExpirableSemaphore(Holding["Permit"]):
    """A semaphore of leased permits on Redis, made by
    :meth:`dlock.Client.permit_expirable_semaphore`; no round trip.

    ``acquire()`` returns a :class:`Permit`. A permit taken with ``lease=None`` is kept
    alive by the client's watchdog until released, like a lock; a permit whose holder
    crashed returns to the pool when its lease ends. Losing a permit is never silent:
    ``on_lost(name, permit_id)`` is called once and its release raises LockLostError
    (LockExpiredError when a fixed ``lease`` ran out as asked: an expiry, not a loss).

    ``with semaphore as permit:`` and ``async with semaphore as permit:`` take a permit
    (waiting forever, watchdog lease) and release it on leaving the block.
    """

    __slots__ = ("_native", "_entered")

    def __init__(self, native: _dlock.PermitSemaphore) -> None:
        self._native = native
        # The permits of the `with` blocks this thread or task is in, innermost last.
        self._entered: contextvars.ContextVar[Tuple[Permit, ...]] = contextvars.ContextVar(
            "dlock_entered_permits", default=()
        )

    @property
    def name(self) -> str:
        return self._native.name

    def acquire(self, timeout: float | None = None, lease: float | None = None) -> Optional[Permit]:
        """A permit, waiting at most ``timeout`` seconds (None: forever, 0: one attempt);
        None when none could be had. ``lease``: None renews it until release, else a fixed
        lease in seconds. The wait never polls; in the main thread Ctrl-C ends it. Under
        gevent or eventlet it yields to the hub."""
        wait_ms = timeouts.wait_ms(True, -1 if timeout is None else timeout)
        lease_ms = timeouts.lease_ms(lease)
        hub = running_hub()
        if hub is not None:
            return self._permit(wait_in_greenlet(hub, self._wait(wait_ms, lease_ms)))
        # An attempt first: a free permit costs no thread.
        permit_id = self._native.acquire(0, lease_ms)
        if permit_id is None and wait_ms != 0:
            permit_id = wait_interruptibly(
                lambda cancel: self._native.acquire(wait_ms, lease_ms, cancel), self._release_taken
            )
        return self._permit(permit_id)

    async def acquire_async(
        self, timeout: float | None = None, lease: float | None = None
    ) -> Optional[Permit]:
        """As :meth:`acquire`, on the event loop without blocking it and without a thread:
        the wait is the C library's asynchronous one. Cancelling the task cancels the wait,
        and a permit that won the race with the cancellation is released."""
        wait_ms = timeouts.wait_ms(True, -1 if timeout is None else timeout)
        lease_ms = timeouts.lease_ms(lease)
        return self._permit(await wait_in_task(self._wait(wait_ms, lease_ms)))

    def _wait(self, wait_ms: int, lease_ms: int) -> NativeWait:
        return NativeWait(
            lambda cancel, done: self._native.acquire_async(wait_ms, lease_ms, cancel, done),
            lambda permit_id: give_back_in_thread(lambda: self._native.release(permit_id)),
        )

    def _permit(self, permit_id: Optional[str]) -> Optional[Permit]:
        return None if permit_id is None else Permit(self, permit_id)

    def release(self, permit_id: str) -> None:
        """Releases the permit ``permit_id``, this process's or another's (as Redisson's
        ``release(id)``)."""
        self._native.release(require_str(permit_id, "permit_id"))

    def try_release(self, permit_id: str) -> bool:
        """As :meth:`release`, answering False instead of raising for a permit that is not
        held (released already, or its lease ran out)."""
        return self._native.try_release(require_str(permit_id, "permit_id"))

    def try_set_permits(self, permits: int) -> bool:
        """Sets the number of permits when the semaphore does not exist yet; False when it
        did (it is left as it is)."""
        return self._native.try_set_permits(require_int(permits, "permits", INT32))

    def available_permits(self) -> int:
        """Available permits, after returning those whose lease ended."""
        return self._native.available_permits()

    def _release_taken(self, permit_id: Optional[str]) -> None:
        """Releases a permit taken by a wait its caller gave up."""
        if permit_id is not None:
            self._native.release(permit_id)

    def _entered_with(self, permit: Optional[Permit]) -> Permit:
        assert permit is not None  # no timeout: only an error ends the wait otherwise
        self._entered.set(self._entered.get() + (permit,))
        return permit

    def _leaving(self) -> Permit:
        entered = self._entered.get()
        self._entered.set(entered[:-1])
        return entered[-1]

    def _take(self) -> Permit:
        return self._entered_with(self.acquire())

    def _give_back(self) -> None:
        self._leaving().release()

    async def _take_async(self) -> Permit:
        return self._entered_with(await self.acquire_async())

    async def _give_back_async(self) -> None:
        await self._leaving().release_async()

    def __repr__(self) -> str:
        return f"<dlock.PermitExpirableSemaphore {self.name!r}>"
