"""Acquire and release for an asyncio task, entirely off the event loop.

The C library runs them on the client's async thread and reports the outcome there. The
report takes the GIL only to hand the outcome to the loop with call_soon_threadsafe, so the
loop never waits on Redis: not for a first attempt, not for a stalled server, not for a
release. A grant that nobody can receive any more, because the task was cancelled or its
loop closed meanwhile, is released again (also off the loop), so that a cancelled task never
leaves a lock held behind it.
"""

from __future__ import annotations

import asyncio
from typing import Optional

from dlock import _dlock
from dlock.errors import error_for_status
from dlock.handles import SharedLock


class _NativeCall:
    """One native asynchronous call and the future its task awaits: the fencing token (None
    when the wait ran out, 0 for a release) or the error."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.future: asyncio.Future[Optional[int]] = loop.create_future()
        # Set when the task stops waiting before the outcome came.
        self._abandoned = False

    def done(self, status: int, token: int, message: str, expiry: bool) -> None:
        """The native report, on the client's async thread. An outcome nobody waits for any
        more is dealt with here, not on the loop, which may be closed, or busy in a blocking
        call that waits for this very lock. (Both reads are of plain state, under the GIL.)"""
        if self._abandoned or self.future.cancelled():
            self.unclaimed(status)
            return
        try:
            self._loop.call_soon_threadsafe(self._settle, status, token, message, expiry)
        except RuntimeError:  # the loop is closed: nobody will take the outcome
            self.unclaimed(status)

    def _settle(self, status: int, token: int, message: str, expiry: bool) -> None:
        """On the loop: completes the future, unless its task gave up waiting."""
        if self._abandoned or self.future.cancelled():
            self.unclaimed(status)
        elif status < 0:
            self.future.set_exception(error_for_status(status, message, expiry))
        else:
            self.future.set_result(None if status == _dlock.NOT_ACQUIRED else token)

    def abandon(self) -> None:
        """The task stopped waiting (on the loop, or wherever its coroutine is closed): an
        outcome yet to come goes to unclaimed(), one that came already and was not taken
        is undone now. Touches no loop, which may be closed by then."""
        if not self.future.done():
            self._abandoned = True
        elif (
            not self.future.cancelled()
            and self.future.exception() is None
            and self.future.result() is not None  # None: the wait ran out, nothing came
        ):
            self.unclaimed(_dlock.OK)

    def unclaimed(self, status: int) -> None:
        """What to undo of an outcome nobody receives; nothing, unless a subclass says."""


class _Acquire(_NativeCall):
    def __init__(self, loop: asyncio.AbstractEventLoop, shared: SharedLock, owner: int) -> None:
        super().__init__(loop)
        self._shared = shared
        self._owner = owner

    def unclaimed(self, status: int) -> None:
        if status == _dlock.OK:
            self._shared.release_async(self._owner, _ignore)


def _ignore(status: int, token: int, message: str, expiry: bool) -> None:
    """The outcome of releasing a grant nobody took: lost or closed meanwhile, nothing is
    left to release, and a failure has nobody to report to."""


async def acquire_in_task(
    shared: SharedLock, owner: int, wait_ms: int, lease_ms: int
) -> Optional[int]:
    """The fencing token, or None when the wait ran out. Cancelling the task cancels the
    wait; a grant that won the race with the cancellation is released again."""
    call = _Acquire(asyncio.get_running_loop(), shared, owner)
    cancel = None if wait_ms == 0 else _dlock.Cancel()
    shared.acquire_async(owner, wait_ms, lease_ms, cancel, call.done)
    try:
        return await call.future
    except BaseException:
        if cancel is not None:
            cancel.trigger()
        call.abandon()
        raise


async def release_in_task(shared: SharedLock, owner: int) -> None:
    """Releases one hold; raises as SharedLock.release() does. A release the task stops
    waiting for (it was cancelled) still happens."""
    call = _NativeCall(asyncio.get_running_loop())
    shared.release_async(owner, call.done)
    await call.future
