"""Blocking waits of the semaphores and the latch that Ctrl-C cuts short (asyncio tasks and
greenlets wait without a thread: in_task.py, in_greenlet.py).

The native wait runs in a thread of its own (one per wait, not a pool: a queued wait would
not be waiting at all) with a cancel token. A blocking caller in the main thread waits for
it interruptibly, so Ctrl-C ends the wait. When the caller gives up, the token cancels the native wait (it returns within
50 ms) and, if the wait won the race and took something, ``undo`` gives it back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Callable, Optional, TypeVar

from dlock import _dlock
from dlock.errors import DlockError

T = TypeVar("T")
NativeWait = Callable[[Optional[_dlock.Cancel]], T]


def _start(wait: NativeWait[T], cancel: _dlock.Cancel) -> concurrent.futures.Future[T]:
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        future.set_running_or_notify_cancel()
        try:
            result = wait(cancel)
        except BaseException as error:
            future.set_exception(error)
        else:
            future.set_result(result)

    threading.Thread(target=run, name="dlock-wait", daemon=True).start()
    return future


def _abandon(
    future: concurrent.futures.Future[T],
    cancel: _dlock.Cancel,
    undo: Optional[Callable[[T], None]],
) -> None:
    cancel.trigger()
    if undo is None:
        return

    def undo_if_taken(done: concurrent.futures.Future[T]) -> None:
        if done.exception() is None and done.result():
            try:
                undo(done.result())
            except DlockError:
                pass  # lost or closed meanwhile: nothing is left to give back

    future.add_done_callback(undo_if_taken)


def wait_interruptibly(wait: NativeWait[T], undo: Optional[Callable[[T], None]] = None) -> T:
    """Runs ``wait``; in the main thread, so that Ctrl-C (KeyboardInterrupt) ends it."""
    if threading.current_thread() is not threading.main_thread():
        # Signal handlers never run here, so nothing can interrupt the wait: wait in place.
        return wait(None)
    cancel = _dlock.Cancel()
    future = _start(wait, cancel)
    try:
        return future.result()
    except BaseException:
        _abandon(future, cancel, undo)
        raise


async def call_in_thread(call: Callable[[], T]) -> T:
    """A call that does not wait for anything but Redis, off the event loop."""
    return await asyncio.get_running_loop().run_in_executor(None, call)
