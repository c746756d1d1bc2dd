"""The count-down latch (Redisson's RCountDownLatch layout)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from dlock import _dlock, timeouts
from dlock.arguments import require_int
from dlock.blocking import wait_interruptibly
from dlock.errors import LatchLostError, LockLostError
from dlock.in_greenlet import running_hub, wait_in_greenlet
from dlock.in_task import wait_in_task
from dlock.native_calls import NativeWait


@contextmanager
def _latch_losses() -> Iterator[None]:
    """The library's E_LOST from a latch wait, raised as what it means there."""
    try:
        yield
    except LockLostError as lost:
        raise LatchLostError(str(lost), lost.status) from lost


def _nothing_taken(value: int) -> None:
    """An open latch seen by a waiter that gave up: nothing to give back."""


class CountDownLatch:
    """A count-down latch on Redis, made by :meth:`dlock.Client.count_down_latch`; no round
    trip. Set it once with :meth:`try_set_count`; :meth:`wait` returns when the count
    reaches zero, woken by the message the last :meth:`count_down` publishes (dlock's or
    Redisson's), never by polling."""

    __slots__ = ("_native",)

    def __init__(self, native: _dlock.CountDownLatch) -> None:
        self._native = native

    @property
    def name(self) -> str:
        return self._native.name

    def try_set_count(self, count: int) -> bool:
        """Sets the count (> 0) when the latch does not exist; False when it did."""
        return self._native.try_set_count(require_int(count, "count"))

    def count_down(self) -> None:
        """Counts down by one; at zero every waiter wakes."""
        self._native.count_down()

    @property
    def count(self) -> int:
        """The count, 0 when the latch is open (or was never set); one round trip."""
        return self._native.count()

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until the count is zero, at most ``timeout`` seconds (None: forever);
        False when the time ran out. In the main thread Ctrl-C ends the wait. Raises
        :class:`dlock.LatchLostError` when a count it saw vanished without a count-down
        to zero (a Redis restart without persistence, or a failover, lost it). Under
        gevent or eventlet the wait yields to the hub."""
        wait_ms = timeouts.wait_ms(True, -1 if timeout is None else timeout)
        hub = running_hub()
        with _latch_losses():
            if hub is not None:
                return wait_in_greenlet(hub, self._wait(wait_ms)) is not None
            # A look first: an open latch costs no thread.
            if self._native.await_(0):
                return True
            if wait_ms == 0:
                return False
            return wait_interruptibly(lambda cancel: self._native.await_(wait_ms, cancel))

    async def wait_async(self, timeout: float | None = None) -> bool:
        """As :meth:`wait`, on the event loop without blocking it and without a thread: the
        wait is the C library's asynchronous one. Cancelling the task cancels the wait."""
        wait_ms = timeouts.wait_ms(True, -1 if timeout is None else timeout)
        with _latch_losses():
            return await wait_in_task(self._wait(wait_ms)) is not None

    def _wait(self, wait_ms: int) -> NativeWait:
        return NativeWait(
            lambda cancel, done: self._native.await_async(wait_ms, cancel, done),
            _nothing_taken,
        )

    def __repr__(self) -> str:
        return f"<dlock.CountDownLatch {self.name!r}>"
