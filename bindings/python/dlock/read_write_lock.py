"""The read-write lock: two Lock objects on one name, Redisson's RReadWriteLock layout."""

from __future__ import annotations

from typing import Optional

from dlock.handles import LockHandles, LostCallback
from dlock.lock import Lock


class ReadWriteLock:
    """A read-write lock on Redis, made by :meth:`dlock.Client.read_write_lock`.

    :meth:`read_lock` and :meth:`write_lock` give :class:`dlock.Lock` objects: the same
    ``acquire``/``release``/``with``/``async with``/``fencing_token``/``on_lost`` as
    ``client.lock(name)``. Readers share, a writer excludes readers and writers; both
    sides are reentrant, and a writer may take the read side too (downgrade). A Redisson
    ``RReadWriteLock`` of the same name is the same lock. What only a reentrant lock has,
    ``inspect``, ``count_attempt`` and ``release_keeping``, raises UnsupportedError on a side.
    """

    __slots__ = ("_handles", "_name", "_lease", "_blocking_timeout", "_on_lost", "_owner", "_write")

    def __init__(
        self,
        handles: LockHandles,
        name: str,
        lease: float | None,
        blocking_timeout: float,
        on_lost: Optional[LostCallback],
        owner: Optional[int],
    ) -> None:
        self._handles = handles
        self._name = name
        self._lease = lease
        self._blocking_timeout = blocking_timeout
        self._on_lost = on_lost
        # Shared by both sides, so that an object-owned writer can downgrade.
        self._owner = owner
        self.read_lock()  # a bad name or timeout fails here, not at the first acquire
        # Kept, so that the write side's settings (writer preference) live as long as this.
        self._write = handles.get(name, "write")

    @property
    def name(self) -> str:
        return self._name

    def read_lock(self) -> Lock:
        """The read side: shared with other readers, excluded by a writer."""
        return self._side("read")

    def write_lock(self) -> Lock:
        """The write side: excludes readers and writers. Its holder may also read."""
        return self._side("write")

    def set_writer_preference(self, enabled: bool) -> None:
        """Writer preference (on by default): while a writer of this client on this name
        waits, new dlock readers wait behind it, so a stream of readers cannot starve it;
        re-entries and the writer's own read never wait. Off, readers are preferred, as in
        Redisson (whose readers ignore the preference anyway). It lasts while this object,
        or a Lock of this client's on the write side of the name, lives."""
        self._write.native.set_writer_preference(bool(enabled))

    def _side(self, side: str) -> Lock:
        shared = self._handles.get(self._name, side)
        return Lock(shared, self._lease, self._blocking_timeout, self._on_lost, self._owner)

    def __repr__(self) -> str:
        return f"<dlock.ReadWriteLock {self._name!r}>"
