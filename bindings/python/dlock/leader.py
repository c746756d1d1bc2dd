"""What every client sees of an election's leader (:meth:`dlock.Election.leader`,
:meth:`dlock.Election.observe`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Leader:
    """A leader: the ``value`` it published (str; "" for none), its ``term`` (the fencing
    token of its leadership, which only grows from one leader to the next), and ``since``,
    when the term began: an aware UTC datetime, by the Redis server's clock (so leaders'
    times compare across machines)."""

    value: str
    term: int
    since: datetime

    @classmethod
    def from_native(cls, value: str, term: int, since_ms: int) -> Leader:
        # Exact to the millisecond (fromtimestamp() goes through a float).
        return cls(value, term, _EPOCH + timedelta(milliseconds=since_ms))
