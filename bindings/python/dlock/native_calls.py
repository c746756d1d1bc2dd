"""A native asynchronous wait or release whose outcome a waiter on another thread takes: an
asyncio task (in_task.py) or a gevent greenlet (in_greenlet.py). Every primitive's wait
goes this way: a lock's or a read-write lock side's acquire, a semaphore's, a leased
permit's, a latch's await, a MultiLock's or RedLock's acquire.

The C library runs the call on the client's async thread and reports the outcome there. The
report takes the GIL only to post the outcome to the waiter's thread, so the waiter's event
loop never waits on Redis, and no thread waits for the grant. A grant that nobody can
receive any more, because the waiter gave up (cancelled, killed, timed out) or its loop
closed meanwhile, is given back (also off the loop), so that a waiter that gives up never
leaves anything held behind it.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NamedTuple, Optional, Protocol, TypeVar

from dlock import _dlock
from dlock.errors import DlockError, error_for_status
from dlock.handles import SharedLock

# Runs callback(*args) soon on the waiter's thread, from any thread (call_soon_threadsafe);
# raises RuntimeError when that loop is closed.
Post = Callable[..., Any]
# The native report: on_done(status, value, message, expiry), value the fencing token (0
# when the call has none) or a leased permit's id.
Done = Callable[[int, Any, str, bool], None]


class NativeWait(NamedTuple):
    """A native asynchronous wait: ``start(cancel, on_done)`` starts it; ``undo(value)``
    gives back a grant nobody received. undo runs on dlock's async thread or on the
    waiter's loop, where nothing may wait: it starts the giving back and returns."""

    start: Callable[[_dlock.Cancel, Done], None]
    undo: Callable[[Any], None]


class Outcome(Protocol):
    """What a NativeCall needs of its waiter's future: asyncio.Future's methods."""

    def cancelled(self) -> bool: ...
    def done(self) -> bool: ...
    def result(self) -> Any: ...
    def exception(self) -> Optional[BaseException]: ...
    def set_result(self, __result: Any) -> None: ...
    def set_exception(self, __exception: BaseException) -> None: ...


F = TypeVar("F", bound=Outcome)


def _nothing_to_undo(value: Any) -> None:
    """A release has nothing to give back."""


class NativeCall:
    """One native asynchronous call and the future its waiter waits for: the call's value
    (None when the wait ran out) or the error."""

    def __init__(self, post: Post, future: Outcome, undo: Callable[[Any], None] = _nothing_to_undo) -> None:
        self._post = post
        self.future = future
        self._undo = undo
        # Set when the waiter stops waiting before the outcome came.
        self._abandoned = False

    def done(self, status: int, value: Any, message: str, expiry: bool) -> None:
        """The native report, on the client's async thread. An outcome nobody waits for any
        more is dealt with here, not on the waiter's loop, which may be closed, or busy in
        a blocking call that waits for this very lock. (Both reads are of plain state,
        under the GIL.)"""
        if self._abandoned or self.future.cancelled():
            self._unclaimed(status, value)
            return
        try:
            self._post(self._settle, status, value, message, expiry)
        except RuntimeError:  # the loop is closed: nobody will take the outcome
            self._unclaimed(status, value)

    def _settle(self, status: int, value: Any, message: str, expiry: bool) -> None:
        """On the waiter's loop: completes the future, unless its waiter gave up."""
        if self._abandoned or self.future.cancelled():
            self._unclaimed(status, value)
        elif status < 0:
            self.future.set_exception(error_for_status(status, message, expiry))
        else:
            self.future.set_result(None if status == _dlock.NOT_ACQUIRED else value)

    def abandon(self) -> None:
        """The waiter stopped waiting (on its loop, or wherever its coroutine is closed): an
        outcome yet to come is undone when it comes, one that came already and was not
        taken is undone now. Touches no loop, which may be closed by then."""
        if not self.future.done():
            self._abandoned = True
        elif (
            not self.future.cancelled()
            and self.future.exception() is None
            and self.future.result() is not None  # None: the wait ran out, nothing came
        ):
            self._undo(self.future.result())

    def _unclaimed(self, status: int, value: Any) -> None:
        if status == _dlock.OK:
            self._undo(value)


@contextmanager
def waiting(post: Post, future: F, wait: NativeWait) -> Iterator[F]:
    """Starts the wait; the block waits for the future it yields (the wait's value, or None
    when it ran out). A waiter leaving the block by an exception cancels the wait, and a
    grant that won the race with it is given back."""
    call = NativeCall(post, future, wait.undo)
    cancel = _dlock.Cancel()
    wait.start(cancel, call.done)
    try:
        yield future
    except BaseException:
        cancel.trigger()
        call.abandon()
        raise


def lock_wait(shared: SharedLock, owner: int, wait_ms: int, lease_ms: int) -> NativeWait:
    """A lock's (or a read-write lock side's) acquire; its value is the fencing token."""
    return NativeWait(
        lambda cancel, done: shared.acquire_async(owner, wait_ms, lease_ms, cancel, done),
        lambda token: shared.release_async(owner, _ignore),
    )


def _ignore(status: int, token: int, message: str, expiry: bool) -> None:
    """The outcome of giving back a grant nobody took: lost or closed meanwhile, nothing is
    left to give back, and a failure has nobody to report to."""


def give_back_in_thread(give_back: Callable[[], object]) -> None:
    """An undo for a primitive whose giving back is a blocking call: it runs on a
    short-lived thread of its own (only a grant that won a race with its waiter's giving up
    comes here)."""

    def run() -> None:
        try:
            give_back()
        except DlockError:
            pass  # lost or closed meanwhile: nothing is left to give back

    threading.Thread(target=run, name="dlock-give-back", daemon=True).start()


def releasing(post: Post, future: F, shared: SharedLock, owner: int) -> F:
    """Starts releasing one hold; the future is done (0) once it happened, or raises as
    SharedLock.release() does. A release whose waiter gives up still happens."""
    shared.release_async(owner, NativeCall(post, future).done)
    return future
