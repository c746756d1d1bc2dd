"""dlock: distributed, reentrant, fenced locks on Redis.

    import dlock

    with dlock.Client("redis://localhost:6379") as client:
        with client.lock("orders:42") as lock:
            write(lock.fencing_token)
"""

from dlock import log as _log  # noqa: F401  (routes the core's log records to logging)
from dlock._dlock import version as _version
from dlock.client import Client
from dlock.errors import (
    AcquireInterruptedError,
    AuthenticationError,
    ClientClosedError,
    ConnectionError,
    DlockError,
    InternalError,
    InvalidArgumentError,
    LatchLostError,
    LockExpiredError,
    LockLostError,
    LockNotOwnedError,
    LockTimeoutError,
    OutOfMemoryError,
    ProtocolError,
    UnsupportedError,
)
from dlock.count_down_latch import CountDownLatch
from dlock.election import Election
from dlock.leader import Leader
from dlock.lock import Lock
from dlock.lock_group import MultiLock, RedLock
from dlock.lock_info import Holder, LockInfo
from dlock.permit_semaphore import Permit, PermitExpirableSemaphore
from dlock.read_write_lock import ReadWriteLock
from dlock.semaphore import Semaphore

__version__ = _version()

__all__ = [
    "AcquireInterruptedError",
    "AuthenticationError",
    "Client",
    "ClientClosedError",
    "ConnectionError",
    "CountDownLatch",
    "DlockError",
    "Election",
    "Holder",
    "InternalError",
    "InvalidArgumentError",
    "LatchLostError",
    "Leader",
    "Lock",
    "LockExpiredError",
    "LockInfo",
    "LockLostError",
    "LockNotOwnedError",
    "LockTimeoutError",
    "MultiLock",
    "OutOfMemoryError",
    "Permit",
    "PermitExpirableSemaphore",
    "ProtocolError",
    "ReadWriteLock",
    "RedLock",
    "Semaphore",
    "UnsupportedError",
]
