"""dlock's exceptions, and the one table from the C library's status codes to them.

Each class also inherits the builtin a Python program already catches for that kind of
failure, so ``except ConnectionError`` or ``except ValueError`` keep working.
"""

from __future__ import annotations

import builtins

from dlock import _dlock


class DlockError(Exception):
    """Base of every dlock error; ``status`` is the C library's status code."""

    status: int

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class InvalidArgumentError(DlockError, ValueError):
    """An argument is empty, too long, malformed or out of range."""


class ConnectionError(DlockError, builtins.ConnectionError):
    """Redis could not be reached, an I/O error, or a command timed out."""


class AuthenticationError(ConnectionError):
    """Redis refused the credentials, or requires some."""


class LockNotOwnedError(DlockError, RuntimeError):
    """The caller released (or asked about) a lock it does not hold, as threading does."""


class LockLostError(DlockError, RuntimeError):
    """The caller held the lock, but it was taken from it (force-released, its key deleted,
    a watchdog lease that lapsed): whatever it guarded may have changed meanwhile."""


class LockExpiredError(LockLostError):
    """The hold's fixed lease (``lease=``) ran out as asked before the release: an expiry,
    not a loss. It is a LockLostError, so ``except LockLostError`` still catches it; the
    section it guarded was unprotected after the lease ended all the same."""


class LatchLostError(LockLostError):
    """A latch wait saw a count above zero, and then the latch's key vanished without a
    count-down to zero (a Redis restart without persistence, or a failover, lost it): the
    latch is not open, its count is unknown."""


class ProtocolError(DlockError):
    """Redis answered something unexpected, e.g. the lock's key is not a lock."""


class AcquireInterruptedError(DlockError):
    """A blocking acquire was cancelled."""


class ClientClosedError(DlockError, RuntimeError):
    """The client was closed."""


class OutOfMemoryError(DlockError, MemoryError):
    """The library could not allocate memory."""


class UnsupportedError(DlockError, NotImplementedError):
    """Not supported by this build or this server (e.g. ``rediss://`` without TLS)."""


class InternalError(DlockError, RuntimeError):
    """A defect inside dlock (its message says where); please report it."""


class LockTimeoutError(DlockError, TimeoutError):
    """``with lock:`` gave up after the lock's ``timeout``."""


# Keyed by the constants the extension exports from dlock.h, so no code is restated
# here; bindings/python/tests/test_status_table.py checks every status of the header has its entry.
_BY_STATUS: dict[int, type[DlockError]] = {
    _dlock.E_INVALID: InvalidArgumentError,
    _dlock.E_CONNECTION: ConnectionError,
    _dlock.E_NOT_OWNER: LockNotOwnedError,
    _dlock.E_LOST: LockLostError,
    _dlock.E_PROTOCOL: ProtocolError,
    _dlock.E_AUTH: AuthenticationError,
    _dlock.E_INTERRUPTED: AcquireInterruptedError,
    _dlock.E_CLOSED: ClientClosedError,
    _dlock.E_NOMEM: OutOfMemoryError,
    _dlock.E_UNSUPPORTED: UnsupportedError,
    _dlock.E_INTERNAL: InternalError,
    _dlock.NOT_ACQUIRED: LockTimeoutError,
}


def error_for_status(status: int, message: str, expiry: bool = False) -> DlockError:
    """The exception for a status code; the native module raises what this returns.
    ``expiry``: the library called an E_LOST an expiry (dlock_last_error_is_expiry)."""
    if expiry and status == _dlock.E_LOST:
        return LockExpiredError(message, status)
    return _BY_STATUS.get(status, DlockError)(message, status)


_dlock.set_error_factory(error_for_status)
