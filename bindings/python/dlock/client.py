"""The client: one Redis server, one watchdog renewing every lock held through it."""

from __future__ import annotations

import atexit
import os
import weakref
from types import TracebackType
from typing import Callable, Mapping, NoReturn, Optional, Type, Union

from dlock import _dlock, timeouts
from dlock.arguments import (
    INT32,
    refuse_unknown_keywords,
    require_callable_or_none,
    require_int,
    require_str,
)
from dlock.count_down_latch import CountDownLatch
from dlock.election import Election
from dlock.handles import LockHandles, LostCallback
from dlock.lock import Lock
from dlock.owner import new_owner
from dlock.permit_semaphore import PermitExpirableSemaphore
from dlock.read_write_lock import ReadWriteLock
from dlock.semaphore import Semaphore
from dlock.synchronized import F, synchronized

# Clients still open at exit are closed while Python still runs: closing releases their
# holds at once, and stops the watchdog before it could call back into a dying interpreter.
_open_clients: weakref.WeakSet[Client] = weakref.WeakSet()

TlsPath = Union[str, "os.PathLike[str]"]


@atexit.register
def _close_open_clients() -> None:
    for client in list(_open_clients):
        client.close()


class Client:
    """A dlock client for ``redis://[user[:password]@]host[:port][/db]`` or
    ``unix:///path.sock[?db=N]``; times are seconds, None keeps the library default
    (connect 2 s, command 3 s, watchdog lease 30 s renewed every third, 8 connections).

    TLS: ``rediss://...`` with ``tls_ca`` (CA bundle; default the system's), ``tls_cert`` and
    ``tls_key`` (client certificate), ``tls_sni`` (the name sent and checked; default the host),
    ``tls_verify`` ("full", the default, or "none"): the same as the URL's query options, which
    override them.

    Sentinel: ``redis-sentinel://[user[:password]@]host:port[,host:port...][/db]#master`` (or
    ``rediss-sentinel://``); the client follows failovers by itself. ``sync_replicas`` (default
    0) and ``sync_timeout`` (seconds, default 1): a grant counts only once that many replicas
    confirmed it (``WAIT``), else it is undone and the attempt fails like a busy lock.

    Cluster: ``redis://host:port[,host:port...]`` naming any nodes as seeds; a server in Cluster
    mode switches the client to it by itself (keys routed by slot, sharded pub/sub on Redis 7).

    ZooKeeper: ``zookeeper://host:port[,host:port...][/chroot][?session_timeout_ms=N]``, locks in
    Curator's layouts held for the session's life (``lease`` must be None; docs/zookeeper.md).
    ``postgresql://`` (``postgres://``) and ``mysql://`` name backends this build does not have:
    :class:`UnsupportedError` naming the backend.

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
        tls_ca: TlsPath | None = None,
        tls_cert: TlsPath | None = None,
        tls_key: TlsPath | None = None,
        tls_sni: str | None = None,
        tls_verify: str | None = None,
        sync_replicas: int | None = None,
        sync_timeout: float | None = None,
    ) -> None:
        self._native = _dlock.Client(
            require_str(url, "url"),
            connect_timeout_ms=timeouts.optional_positive_ms(connect_timeout, "connect_timeout"),
            command_timeout_ms=timeouts.optional_positive_ms(command_timeout, "command_timeout"),
            watchdog_timeout_ms=timeouts.optional_positive_ms(
                watchdog_timeout, "watchdog_timeout"
            ),
            pool_size=_int32_option(pool_size, "pool_size", 1),
            tls_ca=_optional_path(tls_ca, "tls_ca"),
            tls_cert=_optional_path(tls_cert, "tls_cert"),
            tls_key=_optional_path(tls_key, "tls_key"),
            tls_sni=None if tls_sni is None else require_str(tls_sni, "tls_sni"),
            tls_verify=None if tls_verify is None else require_str(tls_verify, "tls_verify"),
            sync_replicas=_int32_option(sync_replicas, "sync_replicas", 0),
            sync_timeout_ms=timeouts.optional_positive_ms(sync_timeout, "sync_timeout"),
        )
        self._handles = LockHandles(self._native)
        _open_clients.add(self)

    def lock(
        self,
        name: str,
        *,
        lease: float | None = None,
        blocking_timeout: float = -1,
        thread_local: bool = True,
        on_lost: LostCallback | None = None,
        reentrant: bool = True,
        **unsupported: NoReturn,
    ) -> Lock:
        """A Lock object on the lock ``name``; no round trip.

        ``reentrant``: True, as :class:`threading.RLock`; False, as :class:`threading.Lock`:
        its holder is not let in again, so a second ``acquire`` by the owner waits for the
        hold's release like anyone else's (``acquire(blocking=False)`` returns False at
        once, ``acquire(timeout=t)`` after ``t``). On Redis it shares the reentrant lock's
        Redisson hash; on ZooKeeper it is Curator's InterProcessSemaphoreMutex (see
        docs/zookeeper.md). With ``thread_local=False`` any thread may release it.

        ``lease``: None renews the lease until release (the watchdog), else a fixed lease in
        seconds, never renewed (see :meth:`Lock.extend`). ``blocking_timeout``: how long
        ``with lock:`` and ``async with lock:`` wait before raising LockTimeoutError (-1:
        forever); ``acquire(blocking, timeout)`` takes its own, as threading's does.
        ``timeout=`` is refused with a TypeError: redis-py's means the lease, so either
        reading would silently be wrong for someone.

        ``thread_local``: True, holds belong to the thread (or asyncio task) that acquires;
        False, as redis-py's, they belong to this object, so one thread or task can acquire
        and another release, and every user of the object re-enters its hold.

        ``on_lost(name, fencing_token)`` is called once when a
        hold taken through this object is lost (the hold's first acquire went through it; a
        re-entry through another object keeps the hold's callback), even if the object was
        dropped meanwhile. It runs on the client's watchdog thread, or in the release that
        found the loss, so it must return quickly and must not wait on dlock. It is also
        called, as before, when a fixed ``lease`` runs out while still held (an expiry, not a
        loss: counted in ``expiries``, logged at INFO, and the release raises
        LockExpiredError): the section is unprotected from then on either way.

        A hold lasts until its owner (thread or task) releases it or the client closes:
        dropping the object releases nothing, so after ``client.lock(job).acquire()`` the
        lock stays held until the owner calls ``release()`` on any object for ``job``.
        Objects on one name share one native handle, which the client keeps while an object
        refers to it or something is held through it: memory grows with the names in use,
        not with every name ever locked.
        """
        owner = _checked_owner("lock", name, thread_local, on_lost, unsupported)
        if not isinstance(reentrant, bool):
            raise TypeError(f"reentrant: expected a bool, got {type(reentrant).__name__}")
        kind = "lock" if reentrant else "nonreentrant"
        return Lock(self._handles.get(name, kind), lease, blocking_timeout, on_lost, owner)

    def fair_lock(
        self,
        name: str,
        *,
        lease: float | None = None,
        blocking_timeout: float = -1,
        thread_local: bool = True,
        on_lost: LostCallback | None = None,
        **unsupported: NoReturn,
    ) -> Lock:
        """A Lock object on the fair lock ``name``, with the options and behaviour of
        :meth:`lock`, except that waiters are served first come, first served by their
        arrival at the server: a release hands the lock to the longest waiter and wakes it
        alone. A non-blocking ``acquire(blocking=False)`` succeeds only when the lock is
        free and nobody waits. It shares Redisson's lock hash, so it excludes reentrant and
        Redisson locks on the same name; see docs/fair-lock.md. No round trip."""
        owner = _checked_owner("fair_lock", name, thread_local, on_lost, unsupported)
        return Lock(self._handles.get(name, "fair"), lease, blocking_timeout, on_lost, owner)

    def read_write_lock(
        self,
        name: str,
        *,
        lease: float | None = None,
        blocking_timeout: float = -1,
        thread_local: bool = True,
        on_lost: LostCallback | None = None,
        **unsupported: NoReturn,
    ) -> ReadWriteLock:
        """A ReadWriteLock on ``name`` (Redisson's RReadWriteLock layout); no round trip.

        Its ``read_lock()`` and ``write_lock()`` are Lock objects taking the arguments given
        here as :meth:`lock` takes them (``thread_local=False``: both sides belong to the
        object, so its writer can also read). See docs/read-write-lock.md.
        """
        owner = _checked_owner("read_write_lock", name, thread_local, on_lost, unsupported)
        return ReadWriteLock(self._handles, name, lease, blocking_timeout, on_lost, owner)

    def semaphore(self, name: str) -> Semaphore:
        """A :class:`dlock.Semaphore` on ``name`` (Redisson's RSemaphore layout); no round
        trip."""
        return Semaphore(_dlock.Semaphore(self._native, require_str(name, "name")))

    def permit_expirable_semaphore(
        self, name: str, *, on_lost: Callable[[str, str], None] | None = None
    ) -> PermitExpirableSemaphore:
        """A :class:`dlock.PermitExpirableSemaphore` on ``name`` (Redisson's
        RPermitExpirableSemaphore layout); no round trip. ``on_lost(name, permit_id)`` is
        called once when a permit taken through this object is lost, on the client's
        watchdog thread (or in the release that found the loss): it must return quickly."""
        require_str(name, "name")
        require_callable_or_none(on_lost, "on_lost")
        return PermitExpirableSemaphore(_dlock.PermitSemaphore(self._native, name, on_lost))

    def count_down_latch(self, name: str) -> CountDownLatch:
        """A :class:`dlock.CountDownLatch` on ``name`` (Redisson's RCountDownLatch layout);
        no round trip."""
        return CountDownLatch(_dlock.CountDownLatch(self._native, require_str(name, "name")))

    def election(self, name: str, *, on_lost: LostCallback | None = None) -> Election:
        """A :class:`dlock.Election` candidate for the leadership of ``name``; no round trip.
        ``on_lost(name, term)`` (also settable later as ``election.on_lost``) is called once
        when its leadership is lost, on the client's watchdog thread: it must return
        quickly. Close it (or use it as a context manager) to resign and free it."""
        return Election(self._native, name, on_lost)

    def synchronized(
        self,
        name: str,
        *,
        lease: float | None = None,
        blocking_timeout: float = -1,
        **unsupported: NoReturn,
    ) -> Callable[[F], F]:
        """Decorates a function or coroutine function to run holding the lock ``name``;
        options as for :meth:`lock`."""
        refuse_unknown_keywords("synchronized", unsupported)
        return synchronized(self.lock(name, lease=lease, blocking_timeout=blocking_timeout))

    def stats(self) -> dict[str, int]:
        """This client's counters since it was opened (in this process; a child after fork
        starts from zero), with the C struct's names: ``grants``, ``reentries``, ``waits``,
        ``handoffs``, ``renewals``, ``renewal_round_trips``, ``locks_lost``, ``reconnects``,
        ``transient_retries``, and the wait before a grant as integer microseconds,
        ``wait_p50_us``, ``wait_p99_us``, ``wait_max_us``; ``failovers`` (Sentinel master
        moves followed); ``expiries`` (fixed leases that ran out as asked, which
        ``locks_lost`` does not count). No round trip."""
        return _dlock.client_stats(self._native)

    def close(self) -> None:
        """Releases the locks still held through this client and closes it. Idempotent."""
        self._native.close()
        self._handles.clear()
        _open_clients.discard(self)

    @property
    def closed(self) -> bool:
        return self._native.closed

    @property
    def backend(self) -> str:
        """The backend that serves this client, as its URL's scheme chose it: ``"redis"``
        (``redis://``, ``rediss://``, ``redis-sentinel://``, ``rediss-sentinel://``,
        ``unix://``) or ``"zookeeper"``. Still answers once the client is closed."""
        return self._native.backend

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


def _checked_owner(
    method: str,
    name: str,
    thread_local: bool,
    on_lost: LostCallback | None,
    unsupported: Mapping[str, object],
) -> Optional[int]:
    """Checks what lock() and read_write_lock() take alike; the owner of an object-owned
    lock (thread_local=False), None for per-thread (or task) ownership."""
    refuse_unknown_keywords(method, unsupported)
    require_str(name, "name")
    require_callable_or_none(on_lost, "on_lost")
    return None if thread_local else new_owner()


def _int32_option(value: int | None, name: str, lowest: int) -> int | None:
    """None keeps the library's default; the C fields are int32_t."""
    return None if value is None else require_int(value, name, (lowest, INT32[1]))


def _optional_path(value: TlsPath | None, argument: str) -> str | None:
    if value is None:
        return None
    return require_str(os.fspath(value) if isinstance(value, os.PathLike) else value, argument)
