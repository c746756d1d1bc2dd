"""Blocking waits that Ctrl-C can abandon cleanly (asyncio tasks wait in in_task.py).

Python runs signal handlers only in the main thread, between bytecodes, so a native wait
there would hold Ctrl-C back until it ended. The native wait runs in a thread of its own
instead while the caller waits interruptibly; when the caller gives up, the wait is
cancelled and, if it won the race, the hold it took is released again.
"""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Optional, Protocol

from dlock import _dlock
from dlock.errors import DlockError


class Waitable(Protocol):
    """What waits here: a lock's SharedLock, or a MultiLock's or RedLock's native group."""

    def acquire(
        self, owner: int, wait_ms: int, lease_ms: int, cancel: Optional[_dlock.Cancel] = None
    ) -> Optional[int]: ...

    def release(self, owner: int) -> None: ...


class _NativeWait:
    def __init__(self, shared: Waitable, owner: int, wait_ms: int, lease_ms: int) -> None:
        self._shared = shared
        self._owner = owner
        self._cancel = _dlock.Cancel()
        self.future: concurrent.futures.Future[Optional[int]] = concurrent.futures.Future()
        # A thread per wait, not a pool: a queued wait would not be waiting at all.
        threading.Thread(
            target=self._run, args=(wait_ms, lease_ms), name="dlock-wait", daemon=True
        ).start()

    def _run(self, wait_ms: int, lease_ms: int) -> None:
        self.future.set_running_or_notify_cancel()
        try:
            token = self._shared.acquire(self._owner, wait_ms, lease_ms, self._cancel)
        except BaseException as error:
            self.future.set_exception(error)
        else:
            self.future.set_result(token)

    def abandon(self) -> None:
        self._cancel.trigger()
        self.future.add_done_callback(self._release_if_granted)

    def _release_if_granted(self, future: concurrent.futures.Future[Optional[int]]) -> None:
        if future.exception() is None and future.result() is not None:
            try:
                self._shared.release(self._owner)
            except DlockError:
                pass  # lost or closed meanwhile: nothing is left to release


def wait_in_thread(shared: Waitable, owner: int, wait_ms: int, lease_ms: int) -> Optional[int]:
    """The fencing token, or None when the wait ran out."""
    if threading.current_thread() is not threading.main_thread():
        # Signal handlers never run here, so nothing can interrupt the wait: wait in place.
        return shared.acquire(owner, wait_ms, lease_ms)
    wait = _NativeWait(shared, owner, wait_ms, lease_ms)
    try:
        return wait.future.result()
    except BaseException:
        wait.abandon()
        raise

