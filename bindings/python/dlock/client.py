"""The client: one Redis server, one watchdog renewing every lock held through it."""

from __future__ import annotations

import atexit
import weakref
from types import TracebackType
from typing import Callable, Optional, Type

from dlock import _dlock, timeouts
from dlock.lock import Lock
from dlock.synchronized import F, synchronized

# Clients still open at exit are closed while Python still runs: closing releases their
# holds at once, and stops the watchdog before it could call back into a dying interpreter.
_open_clients: weakref.WeakSet[Client] = weakref.WeakSet()


@atexit.register
def _close_open_clients() -> None:
    for client in list(_open_clients):
        client.close()


class Client:
    """A dlock client for ``redis://[user[:password]@]host[:port][/db]`` or
    ``unix:///path.sock[?db=N]``; times are seconds, None keeps the library default
    (connect 2 s, command 3 s, watchdog lease 30 s renewed every third, 8 connections).

    Usable as a context manager; :meth:`close` is idempotent. A client made before
    ``os.fork()`` works in the child, which gets connections and an identity of its own.
    """

    def __init__(
        self,
        url: str,
        *,
        connect_timeout: float | None = None,
        command_timeout: float | None = None,
        watchdog_timeout: float | None = None,
        pool_size: int | None = None,
    ) -> None:
        self._native = _dlock.Client(
            url,
            connect_timeout_ms=timeouts.optional_positive_ms(connect_timeout, "connect_timeout"),
            command_timeout_ms=timeouts.optional_positive_ms(command_timeout, "command_timeout"),
            watchdog_timeout_ms=timeouts.optional_positive_ms(
                watchdog_timeout, "watchdog_timeout"
            ),
            pool_size=pool_size,
        )
        _open_clients.add(self)

    def lock(
        self,
        name: str,
        *,
        lease: float | None = None,
        timeout: float = -1,
        on_lost: Callable[[str, int], object] | None = None,
    ) -> Lock:
        """A handle on the lock ``name``; no round trip.

        ``lease``: None renews the lease until release (the watchdog), else a fixed lease in
        seconds, never renewed. ``timeout``: how long ``with lock:`` waits before raising
        LockTimeoutError (-1: forever). ``on_lost(name, fencing_token)`` is called once when a
        hold taken through this handle is lost; it runs on the client's watchdog thread, so it
        must return quickly and must not wait on dlock.

        Keep the lock object while you hold it: holds still taken through it are released
        (off the garbage collector's thread) once it is dropped.
        """
        return Lock(self._native.lock(name, on_lost), lease, timeout)

    def synchronized(
        self, name: str, *, lease: float | None = None, timeout: float = -1
    ) -> Callable[[F], F]:
        """Decorates a function or coroutine function to run holding the lock ``name``."""
        return synchronized(self.lock(name, lease=lease, timeout=timeout))

    def stats(self) -> dict[str, int]:
        """This client's counters since it was opened (in this process; a child after fork
        starts from zero), with the C struct's names: ``grants``, ``reentries``, ``waits``,
        ``handoffs``, ``renewals``, ``renewal_round_trips``, ``locks_lost``, ``reconnects``,
        ``transient_retries``, and the wait before a grant as integer microseconds,
        ``wait_p50_us``, ``wait_p99_us``, ``wait_max_us``. No round trip."""
        return _dlock.client_stats(self._native)

    def close(self) -> None:
        """Releases the locks still held through this client and closes it. Idempotent."""
        self._native.close()
        _open_clients.discard(self)

    @property
    def closed(self) -> bool:
        return self._native.closed

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<dlock.Client {'closed' if self.closed else 'open'}>"
