"""Seconds as floats (Python's unit) to milliseconds (dlock's), checked as threading checks them."""

from __future__ import annotations

import math

from dlock import _dlock
from dlock.arguments import require_seconds
from dlock.errors import error_for_status

FOREVER_MS = -1
WATCHDOG_LEASE_MS = -1
# Far beyond any real wait, and far from overflowing a monotonic clock in nanoseconds.
_MAX_SECONDS = 2.0**31


def _invalid(message: str) -> Exception:
    return error_for_status(_dlock.E_INVALID, message)


def _to_ms(seconds: float, argument: str) -> int:
    if seconds != seconds:  # NaN of any real type (math.isnan() overflows on a huge int)
        raise _invalid(f"{argument} must not be NaN")
    if seconds > _MAX_SECONDS:
        raise _invalid(f"{argument} value is too large")
    return math.ceil(seconds * 1000)


def wait_ms(blocking: bool, timeout: float, argument: str = "timeout") -> int:
    """0 for one attempt, -1 to wait forever, else the bound; raises as threading.RLock does."""
    require_seconds(timeout, argument)
    if not blocking:
        if timeout != -1:
            raise _invalid("can't specify a timeout for a non-blocking call")
        return 0
    if timeout == -1:
        return FOREVER_MS
    if timeout < 0:
        raise _invalid(f"{argument} value must be positive")
    return _to_ms(timeout, argument)


def lease_ms(lease: float | None) -> int:
    """-1 (the client's watchdog renews the lease until release) for None, else a fixed lease."""
    if lease is None:
        return WATCHDOG_LEASE_MS
    return positive_ms(lease, "lease")


def positive_ms(seconds: float, argument: str) -> int:
    if not require_seconds(seconds, argument) > 0:
        raise _invalid(f"{argument} must be a positive number of seconds")
    return max(1, _to_ms(seconds, argument))


def optional_positive_ms(seconds: float | None, argument: str) -> int | None:
    """None keeps the library's default."""
    return None if seconds is None else positive_ms(seconds, argument)
