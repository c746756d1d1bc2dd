"""The counting semaphore (Redisson's RSemaphore layout): threading.Semaphore's interface."""

from __future__ import annotations

from dlock import _dlock, timeouts
from dlock.arguments import INT32, require_int
from dlock.blocking import call_in_thread, wait_interruptibly
from dlock.holding import Holding
from dlock.in_greenlet import running_hub, wait_in_greenlet
from dlock.in_task import wait_in_task
from dlock.native_calls import NativeWait, give_back_in_thread


def _wait_ms(blocking: bool, timeout: float | None) -> int:
    return timeouts.wait_ms(blocking, -1 if timeout is None else timeout)


class Semaphore(Holding["Semaphore"]):
    """A semaphore on Redis, made by :meth:`dlock.Client.semaphore`; no round trip.

    Its permits are counted in the key ``name``, as Redisson's RSemaphore counts them, so
    dlock and Redisson processes share them. Permits are not owned: any caller may release
    them, and nothing renews them (use :class:`dlock.PermitExpirableSemaphore` for permits
    that return when their holder dies). A semaphore that was never set has no permits:
    set it once with :meth:`try_set_permits`.

    ``with semaphore:`` and ``async with semaphore:`` take one permit and give it back.
    """

    __slots__ = ("_native",)

    def __init__(self, native: _dlock.Semaphore) -> None:
        self._native = native

    @property
    def name(self) -> str:
        return self._native.name

    def acquire(self, blocking: bool = True, timeout: float | None = None, permits: int = 1) -> bool:
        """Takes ``permits`` permits, waiting at most ``timeout`` seconds (None: forever);
        False if they could not be had. The wait never polls: a release wakes it; in the
        main thread Ctrl-C ends it. Under gevent or eventlet it yields to the hub."""
        wait_ms = _wait_ms(blocking, timeout)
        count = require_int(permits, "permits", INT32)
        hub = running_hub()
        if hub is not None:
            return wait_in_greenlet(hub, self._wait(count, wait_ms)) is not None
        # An attempt first: free permits cost no thread.
        if self._native.acquire(count, 0):
            return True
        if wait_ms == 0:
            return False
        return wait_interruptibly(
            lambda cancel: self._native.acquire(count, wait_ms, cancel),
            lambda taken: self._native.release(count),
        )

    async def acquire_async(self, timeout: float | None = None, permits: int = 1) -> bool:
        """As :meth:`acquire`, on the event loop without blocking it and without a thread:
        the wait is the C library's asynchronous one. Cancelling the task cancels the wait,
        and permits that won the race with the cancellation are given back."""
        wait_ms = _wait_ms(True, timeout)
        count = require_int(permits, "permits", INT32)
        return await wait_in_task(self._wait(count, wait_ms)) is not None

    def _wait(self, count: int, wait_ms: int) -> NativeWait:
        return NativeWait(
            lambda cancel, done: self._native.acquire_async(count, wait_ms, cancel, done),
            lambda taken: give_back_in_thread(lambda: self._native.release(count)),
        )

    def release(self, permits: int = 1) -> None:
        """Gives ``permits`` permits back and wakes the waiters. Raises
        :class:`dlock.LockLostError`, adding nothing, when they were taken through this
        handle and the semaphore's key has vanished since (a Redis restart without
        persistence, a failover): :meth:`try_set_permits` can then set it again."""
        self._native.release(require_int(permits, "permits", INT32))

    async def release_async(self, permits: int = 1) -> None:
        count = require_int(permits, "permits", INT32)
        await call_in_thread(lambda: self._native.release(count))

    def try_set_permits(self, permits: int) -> bool:
        """Sets the number of permits when the semaphore does not exist yet (never set, or
        vanished); False when it did (it is left as it is)."""
        return self._native.try_set_permits(require_int(permits, "permits", INT32))

    def available_permits(self) -> int:
        return self._native.available_permits()

    def _take(self) -> Semaphore:
        self.acquire()
        return self

    def _give_back(self) -> None:
        self.release()

    async def _take_async(self) -> Semaphore:
        await self.acquire_async()
        return self

    async def _give_back_async(self) -> None:
        await self.release_async()

    def __repr__(self) -> str:
        return f"<dlock.Semaphore {self.name!r}>"
