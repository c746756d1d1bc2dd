"""Acquire and release for a greenlet under gevent: the wait yields to the hub, so the
thread's other greenlets keep running, and never blocks the OS thread on Redis.

The native asynchronous call (native_calls.py) posts its outcome to the hub's loop from the
client's async thread; the greenlet waits for it on a gevent AsyncResult. A greenlet that
stops waiting (killed, or a gevent.Timeout) cancels the wait, and a grant that won the race
is released again.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from typing import Any, Iterator, Optional

from dlock.handles import SharedLock
from dlock.native_calls import acquiring, releasing

# Untyped: gevent has no type stubs.
AsyncResult: Any = importlib.import_module("gevent.event").AsyncResult


class _GreenFuture:
    """What a native call settles (asyncio.Future's methods), over gevent's AsyncResult."""

    def __init__(self) -> None:
        self._result = AsyncResult()

    def cancelled(self) -> bool:
        return False  # a greenlet that gives up abandons the call instead

    def done(self) -> bool:
        return bool(self._result.ready())

    def result(self) -> Optional[int]:
        return self._result.get(block=False)  # type: ignore[no-any-return]

    def exception(self) -> Optional[BaseException]:
        return self._result.exception  # type: ignore[no-any-return]

    def set_result(self, result: Optional[int]) -> None:
        self._result.set(result)

    def set_exception(self, exception: BaseException) -> None:
        self._result.set_exception(exception)

    def wait(self) -> Optional[int]:
        """The outcome, the calling greenlet yielding to the hub until it comes."""
        return self._result.get()  # type: ignore[no-any-return]


@contextmanager
def _hub_kept_running(hub: Any) -> Iterator[None]:
    """Keeps the hub's loop running while a greenlet waits for an outcome from another
    thread: a callback posted with run_callback_threadsafe does not, and with nothing
    else to do the hub would end the wait with LoopExit ("would block forever")."""
    watcher = hub.loop.async_()
    watcher.start(_nothing)
    try:
        yield
    finally:
        watcher.close()


def _nothing() -> None:
    pass


def acquire_in_greenlet(
    hub: Any, shared: SharedLock, owner: int, wait_ms: int, lease_ms: int
) -> Optional[int]:
    """The fencing token, or None when the wait ran out."""
    with _hub_kept_running(hub), acquiring(
        hub.loop.run_callback_threadsafe, _GreenFuture(), shared, owner, wait_ms, lease_ms
    ) as future:
        return future.wait()


def release_in_greenlet(hub: Any, shared: SharedLock, owner: int) -> None:
    """Releases one hold; raises as SharedLock.release() does."""
    with _hub_kept_running(hub):
        releasing(hub.loop.run_callback_threadsafe, _GreenFuture(), shared, owner).wait()
