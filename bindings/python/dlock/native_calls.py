"""A native asynchronous acquire or release whose outcome a waiter on another thread takes:
an asyncio task (in_task.py) or a gevent greenlet (in_greenlet.py).

The C library runs the call on the client's async thread and reports the outcome there. The
report takes the GIL only to post the outcome to the waiter's thread, so the waiter's event
loop never waits on Redis. A grant that nobody can receive any more, because the waiter gave
up (cancelled, killed, timed out) or its loop closed meanwhile, is released again (also off
the loop), so that a waiter that gives up never leaves a lock held behind it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, Protocol, TypeVar

from dlock import _dlock
from dlock.errors import error_for_status
from dlock.handles import SharedLock

# Runs callback(*args) soon on the waiter's thread, from any thread (call_soon_threadsafe);
# raises RuntimeError when that loop is closed.
Post = Callable[..., Any]


class Outcome(Protocol):
    """What a NativeCall needs of its waiter's future: asyncio.Future's methods."""

    def cancelled(self) -> bool: ...
    def done(self) -> bool: ...
    def result(self) -> Optional[int]: ...
    def exception(self) -> Optional[BaseException]: ...
    def set_result(self, __result: Optional[int]) -> None: ...
    def set_exception(self, __exception: BaseException) -> None: ...


F = TypeVar("F", bound=Outcome)


class NativeCall:
    """One native asynchronous call and the future its waiter waits for: the fencing token
    (None when the wait ran out, 0 for a release) or the error."""

    def __init__(self, post: Post, future: Outcome) -> None:
        self._post = post
        self.future = future
        # Set when the waiter stops waiting before the outcome came.
        self._abandoned = False

    def done(self, status: int, token: int, message: str, expiry: bool) -> None:
        """The native report, on the client's async thread. An outcome nobody waits for any
        more is dealt with here, not on the waiter's loop, which may be closed, or busy in
        a blocking call that waits for this very lock. (Both reads are of plain state,
        under the GIL.)"""
        if self._abandoned or self.future.cancelled():
            self.unclaimed(status)
            return
        try:
            self._post(self._settle, status, token, message, expiry)
        except RuntimeError:  # the loop is closed: nobody will take the outcome
            self.unclaimed(status)

    def _settle(self, status: int, token: int, message: str, expiry: bool) -> None:
        """On the waiter's loop: completes the future, unless its waiter gave up."""
        if self._abandoned or self.future.cancelled():
            self.unclaimed(status)
        elif status < 0:
            self.future.set_exception(error_for_status(status, message, expiry))
        else:
            self.future.set_result(None if status == _dlock.NOT_ACQUIRED else token)

    def abandon(self) -> None:
        """The waiter stopped waiting (on its loop, or wherever its coroutine is closed): an
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


class _Acquire(NativeCall):
    def __init__(self, post: Post, future: Outcome, shared: SharedLock, owner: int) -> None:
        super().__init__(post, future)
        self._shared = shared
        self._owner = owner

    def unclaimed(self, status: int) -> None:
        if status == _dlock.OK:
            self._shared.release_async(self._owner, _ignore)


def _ignore(status: int, token: int, message: str, expiry: bool) -> None:
    """The outcome of releasing a grant nobody took: lost or closed meanwhile, nothing is
    left to release, and a failure has nobody to report to."""


@contextmanager
def acquiring(
    post: Post, future: F, shared: SharedLock, owner: int, wait_ms: int, lease_ms: int
) -> Iterator[F]:
    """Starts the acquire; the block waits for the future it yields (the fencing token, or
    None when the wait ran out). A waiter leaving the block by an exception cancels the
    wait, and a grant that won the race with it is released again."""
    call = _Acquire(post, future, shared, owner)
    cancel = None if wait_ms == 0 else _dlock.Cancel()
    shared.acquire_async(owner, wait_ms, lease_ms, cancel, call.done)
    try:
        yield future
    except BaseException:
        if cancel is not None:
            cancel.trigger()
        call.abandon()
        raise


def releasing(post: Post, future: F, shared: SharedLock, owner: int) -> F:
    """Starts releasing one hold; the future is done (0) once it happened, or raises as
    SharedLock.release() does. A release whose waiter gives up still happens."""
    shared.release_async(owner, NativeCall(post, future).done)
    return future
