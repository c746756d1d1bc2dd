"""The distributed lock: threading.RLock's interface, plus leases, fencing and asyncio."""

from __future__ import annotations

import math
from types import TracebackType
from typing import Optional, Type

from dlock import _dlock, timeouts
from dlock.errors import DlockError, error_for_status
from dlock.handles import LostCallback, SharedLock
from dlock.owner import current_owner
from dlock.waiting import wait_in_task, wait_in_thread

_NOT_LOCKED_MS = -2
_NO_EXPIRY_MS = -1

class Lock:
    """A reentrant lock on Redis, made by :meth:`dlock.Client.lock`.

    It behaves like :class:`threading.RLock`, owned per thread, or per asyncio task for
    code running in one. Holds are counted locally: re-entering costs no round trip.

    Holds belong to their owner, not to this object: every Lock object of a client on the
    same name sees the same holds, and dropping the object keeps them.
    """

    __slots__ = ("_shared", "_on_lost", "_lease_ms", "_timeout")

    def __init__(
        self,
        shared: SharedLock,
        lease: float | None,
        timeout: float,
        on_lost: Optional[LostCallback] = None,
    ) -> None:
        timeouts.wait_ms(True, timeout)  # a bad timeout fails here, not at the first `with`
        self._shared = shared
        self._on_lost = on_lost
        self._lease_ms = timeouts.lease_ms(lease)
        self._timeout = timeout

    @property
    def name(self) -> str:
        return self._shared.native.name

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """Takes the lock, waiting at most ``timeout`` seconds (-1: forever); False if it could not.

        The wait releases the GIL and never polls; in the main thread Ctrl-C ends it.
        """
        wait_ms = timeouts.wait_ms(blocking, timeout)
        owner = current_owner()
        token = self._shared.acquire(owner, 0, self._lease_ms)
        if token is None and wait_ms != 0:
            token = wait_in_thread(self._shared, owner, wait_ms, self._lease_ms)
        return self._took(owner, token)

    async def acquire_async(self, blocking: bool = True, timeout: float = -1) -> bool:
        """As :meth:`acquire` for the current task; the wait never blocks the event loop."""
        wait_ms = timeouts.wait_ms(blocking, timeout)
        owner = current_owner()
        token = self._shared.acquire(owner, 0, self._lease_ms)
        if token is None and wait_ms != 0:
            token = await wait_in_task(self._shared, owner, wait_ms, self._lease_ms)
        return self._took(owner, token)

    def _took(self, owner: int, token: Optional[int]) -> bool:
        if token is None:
            return False
        self._shared.took(owner, token, self._on_lost)
        return True

    def release(self) -> None:
        """Releases one hold; raises LockNotOwnedError (a RuntimeError) when there is none,
        and LockLostError when the hold had been lost."""
        self._shared.release(current_owner())

    def locked(self) -> bool:
        """True when anyone holds the lock (one round trip)."""
        return self._shared.native.is_locked()

    @property
    def held(self) -> bool:
        """True when the caller holds the lock and it is not known lost."""
        return self._shared.native.is_held(current_owner())

    @property
    def hold_count(self) -> int:
        """The caller's number of holds (0 when it holds none)."""
        return self._shared.native.hold_count(current_owner())

    @property
    def fencing_token(self) -> int:
        """The caller's current fencing token; raises LockNotOwnedError when it holds none."""
        return self._shared.native.fencing_token(current_owner())

    @property
    def ttl(self) -> float | None:
        """Seconds left on whoever's lease (inf: no expiry), None when nobody holds it."""
        ms = self._shared.native.ttl_ms()
        if ms == _NOT_LOCKED_MS:
            return None
        return math.inf if ms == _NO_EXPIRY_MS else ms / 1000

    def force_release(self) -> None:
        """Deletes the lock whoever holds it; that holder learns of it as a lost lock."""
        self._shared.native.force_release()

    def _require_acquired(self, acquired: bool) -> None:
        """``with lock:`` has no False to return: a wait that ran out is an error there."""
        if not acquired:
            raise error_for_status(
                _dlock.NOT_ACQUIRED, f"lock {self.name!r} not acquired within {self._timeout} s"
            )

    def __enter__(self) -> Lock:
        self._require_acquired(self.acquire(timeout=self._timeout))
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        _release_leaving_block(self, exc)

    async def __aenter__(self) -> Lock:
        self._require_acquired(await self.acquire_async(timeout=self._timeout))
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        _release_leaving_block(self, exc)

    def __repr__(self) -> str:
        return f"<dlock.Lock {self.name!r}>"

def _release_leaving_block(lock: Lock, block_error: Optional[BaseException]) -> None:
    """Releases on leaving a ``with`` block. A release failure (the lock was lost) is raised,
    unless the block raised already: then it is noted on that error, not put in its place."""
    try:
        lock.release()
    except DlockError as error:
        if block_error is None or not hasattr(block_error, "add_note"):
            raise
        block_error.add_note(f"while leaving the block, releasing {lock.name!r} failed: {error}")
