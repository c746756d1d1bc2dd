"""A client's lock handles: one native handle per lock name, shared by every Lock object
made for that name.

Freeing a native handle releases the holds still taken through it (the C library's rule,
so that nothing renews a lock no one can release any more). Were each Lock object to own
a handle, dropping the object would release its holds: ``client.lock(job).acquire()``
would return True over a lock already free again, and of two objects on one name,
dropping one would free the hold the other relies on. So the client owns the handles, as
the Java binding shares one DLock per name, and a hold lives until its owner releases it
(through any Lock object on that name) or the client closes.

Memory follows what is in use, not every name ever locked: a handle is kept while a Lock
object refers to it or a hold taken through it is open (it is *pinned* then), and dropped
with its last Lock object otherwise. Freeing it then makes no round trip, since nothing is
held through it, so garbage collection never waits on the network.

Lost-lock reports: the C library calls one callback per handle, but the Lock objects on a
name may each have an ``on_lost`` of their own. Each hold reports to the ``on_lost`` of
the Lock object through which it was taken (its outermost acquire: a re-entry through
another object keeps the hold's callback), even once that object is dropped. One race is
left open: when release() raises LockLostError while the watchdog's report of that loss is
still on its way, and no Lock object on the name is left, the handle (nothing is held
through it any more) may be dropped before the report arrives; the LockLostError was then
the only notice.
"""

from __future__ import annotations

import os
import weakref
from typing import Callable, Optional, Protocol

from dlock import _dlock
from dlock.errors import LockLostError
from dlock.greenlets import os_lock

LostCallback = Callable[[str, int], object]
# Receives the outcome of an asynchronous native call: (status, fencing token, message).
AsyncDone = Callable[[int, int, str, bool], None]


class SharedLock:
    """The native handle of one lock name, and which ``on_lost`` each of its holds reports to."""

    __slots__ = ("native", "_handles", "_on_lost", "__weakref__")

    def __init__(
        self, handles: LockHandles, native_client: _dlock.Client, name: str, kind: str = "lock"
    ) -> None:
        self._handles = handles
        # (owner, fencing token) of a hold -> the on_lost of the object it was taken through.
        # Only holds taken through an object with an on_lost have an entry.
        self._on_lost: dict[tuple[int, int], LostCallback] = {}
        self.native = native_client.lock(name, LostDispatch(weakref.ref(self)), kind)

    def acquire(
        self, owner: int, wait_ms: int, lease_ms: int, cancel: Optional[_dlock.Cancel] = None
    ) -> Optional[int]:
        """The native acquire (the fencing token, None when the wait ran out), pinning the
        handle once something is held through it."""
        return self._pinned(self.native.acquire(owner, wait_ms, lease_ms, cancel))

    def try_before_wait(self, owner: int, lease_ms: int) -> Optional[int]:
        """One attempt as the first of a wait that follows: it respects the waiters' turn,
        where acquire(owner, 0, ...) barges (dlock_lock_try_before_wait_owner)."""
        return self._pinned(self.native.try_before_wait(owner, lease_ms))

    def _pinned(self, token: Optional[int]) -> Optional[int]:
        """Pins the handle once something is held through it."""
        if token is not None:
            self._handles.pin(self)
        return token

    def acquire_async(
        self,
        owner: int,
        wait_ms: int,
        lease_ms: int,
        cancel: Optional[_dlock.Cancel],
        on_done: AsyncDone,
    ) -> None:
        """As acquire(), without blocking: on_done(status, token, message, expiry) gets the
        outcome on the client's async thread, where it must return quickly (expiry: an E_LOST
        that is a fixed lease's expiry)."""

        def done(status: int, token: int, message: str, expiry: bool) -> None:
            if status == _dlock.OK:
                self._handles.pin(self)
            on_done(status, token, message, expiry)

        self.native.acquire_async(owner, wait_ms, lease_ms, cancel, done)

    def took(self, owner: int, token: int, on_lost: Optional[LostCallback]) -> None:
        """Called after an acquire through a Lock object; a new hold reports to its on_lost."""
        if on_lost is not None and self.native.hold_count(owner) == 1:
            self._on_lost[(owner, token)] = on_lost

    def release(self, owner: int) -> None:
        ending = self._ending_hold(owner)
        lost = False
        try:
            self.native.release(owner)
        except LockLostError:
            lost = True
            raise
        finally:
            self._released(ending, lost)

    def release_async(self, owner: int, on_done: AsyncDone) -> None:
        """As release(), without blocking; on_done as for acquire_async()."""
        ending = self._ending_hold(owner)

        def done(status: int, token: int, message: str, expiry: bool) -> None:
            self._released(ending, status == _dlock.E_LOST)
            on_done(status, token, message, expiry)

        self.native.release_async(owner, done)

    def _released(self, ending: Optional[tuple[int, int]], lost: bool) -> None:
        """After a release: the ended hold no longer reports its loss, unless the release
        found it lost (then the loss report, which may still be on its way, drops the
        entry), and the handle is unpinned once nothing is held through it."""
        if ending is not None and not lost:
            self._on_lost.pop(ending, None)
        self._handles.settle(self)

    def _ending_hold(self, owner: int) -> Optional[tuple[int, int]]:
        """The entry of the owner's hold when releasing once ends it, if it has one."""
        if not self._on_lost or self.native.hold_count(owner) != 1:
            return None
        return (owner, self.native.fencing_token(owner))

    def report_lost(self, name: str, owner: int, token: int) -> None:
        on_lost = self._on_lost.pop((owner, token), None)
        if on_lost is not None:
            on_lost(name, token)


class ReportsLost(Protocol):
    """What a native handle's losses are reported to: a SharedLock, an Election."""

    def report_lost(self, name: str, owner: int, token: int) -> None: ...


class LostDispatch:
    """A native handle's one lost-lock callback. It refers to what it reports to weakly:
    the garbage collector cannot see through a native handle, so a reference cycle running
    through one would never be collected."""

    __slots__ = ("_shared",)

    def __init__(self, shared: weakref.ref[ReportsLost]) -> None:
        self._shared = shared

    def __call__(self, name: str, owner: int, token: int) -> None:
        shared = self._shared()
        if shared is not None:
            shared.report_lost(name, owner, token)


class LockHandles:
    """One client's SharedLocks by kind and name: those referred to, and those pinned by a
    hold."""

    def __init__(self, native_client: _dlock.Client) -> None:
        self._native_client = native_client
        # An OS mutex, not a greenlet one: the client's async thread pins handles too.
        self._mutex = os_lock()
        # By name for reentrant locks, by (kind, name) for the other kinds.
        self._by_name: weakref.WeakValueDictionary[str | tuple[str, str], SharedLock] = (
            weakref.WeakValueDictionary()
        )
        self._pinned: set[SharedLock] = set()
        _every_registry.add(self)

    def get(self, name: str, kind: str = "lock") -> SharedLock:
        """The handle of the lock ``name`` of ``kind``: "lock" the reentrant lock, "fair"
        the fair lock, "nonreentrant" the non-reentrant lock, "read" or "write" a side of
        the read-write lock."""
        key: str | tuple[str, str] = name if kind == "lock" else (kind, name)
        # Under the mutex: two handles on one name would each count only their own holds.
        with self._mutex:
            shared = self._by_name.get(key)
            if shared is None:
                shared = SharedLock(self, self._native_client, name, kind)
                self._by_name[key] = shared
            return shared

    def pin(self, shared: SharedLock) -> None:
        with self._mutex:
            self._pinned.add(shared)

    def settle(self, shared: SharedLock) -> None:
        """Unpins a handle nothing is held through any more. The check and the unpinning
        are one step against pin(), so a grant racing with the last release stays pinned."""
        with self._mutex:
            if shared.native.open_holds == 0:
                self._pinned.discard(shared)

    def clear(self) -> None:
        """Forgets every handle once the client is closed (closing released every hold)."""
        with self._mutex:
            self._pinned.clear()
            self._by_name.clear()

    def names(self) -> list[str]:
        """The names that have a handle now (once per kind or read-write side)."""
        with self._mutex:
            return [key if isinstance(key, str) else key[1] for key in self._by_name.keys()]


# A parent's thread holding a mutex at fork() does not exist in the child to release it.
_every_registry: weakref.WeakSet[LockHandles] = weakref.WeakSet()


def _renew_mutexes_in_child() -> None:
    for handles in _every_registry:
        handles._mutex = os_lock()


os.register_at_fork(after_in_child=_renew_mutexes_in_child)
