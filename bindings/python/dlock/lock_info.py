"""What :meth:`dlock.Lock.inspect` reads: a snapshot of who holds a lock."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

NOT_LOCKED_MS = -2
NO_EXPIRY_MS = -1


def seconds_left(ttl_ms: int) -> float | None:
    """A PTTL in seconds: None when the key does not exist, inf when it never expires."""
    if ttl_ms == NOT_LOCKED_MS:
        return None
    return math.inf if ttl_ms == NO_EXPIRY_MS else ttl_ms / 1000


@dataclass(frozen=True)
class Holder:
    """One field of the lock's hash: ``<client-id>:<owner>`` for dlock and Redisson
    holders (``...:kept`` for a hold kept by :meth:`dlock.Lock.release_keeping`)."""

    id: str
    hold_count: int


@dataclass(frozen=True)
class LockInfo:
    """One consistent snapshot of a lock, read in one round trip."""

    holders: tuple[Holder, ...]
    ttl: Optional[float]  # seconds left on the lease; None when not locked, inf: no expiry
    last_fencing_token: Optional[int]  # the last token granted on this name, if any

    @property
    def locked(self) -> bool:
        return bool(self.holders)

    @classmethod
    def from_native(cls, snapshot: tuple[int, int | None, list[tuple[bytes, int]]]) -> LockInfo:
        ttl_ms, token, holders = snapshot
        return cls(
            holders=tuple(
                Holder(raw.decode("utf-8", "backslashreplace"), count) for raw, count in holders
            ),
            ttl=seconds_left(ttl_ms),
            last_fencing_token=token,
        )
