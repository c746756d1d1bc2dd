"""Type checks at the package's edge: a wrong type is a TypeError naming the argument.

The native module converts arguments too, but its errors name no argument, and a failed
conversion there must not be the only guard (pybind11 versions differ in what follows one).
"""

from __future__ import annotations

import numbers
import operator
from typing import Mapping, Tuple, TypeVar

from dlock import _dlock
from dlock.errors import error_for_status

T = TypeVar("T")
# The ranges of the C library's integer parameters; its own checks (e.g. permits > 0)
# come after, with the same kind of message.
INT32: Tuple[int, int] = (-(2**31), 2**31 - 1)
INT64: Tuple[int, int] = (-(2**63), 2**63 - 1)


def _type_error(argument: str, expected: str, value: object) -> TypeError:
    return TypeError(f"{argument}: must be {expected}, got {type(value).__name__}")


def require_str(value: object, argument: str) -> str:
    """Text only: bytes would reach the C library undecoded, and names that are not UTF-8
    could not be handed back to Python (lock names, lost-lock reports). So a lone
    surrogate, which has no UTF-8 form, is refused too (a NUL is, by the native module)."""
    if not isinstance(value, str):
        raise _type_error(argument, "str", value)
    try:
        value.encode()
    except UnicodeEncodeError as error:
        raise error_for_status(
            _dlock.E_INVALID,
            f"{argument}: must be valid Unicode text, got {error.reason} at index {error.start}",
        ) from None
    return value


def require_seconds(value: T, argument: str) -> T:
    """Any real number, as threading takes timeouts; the range is the caller's to check."""
    if not isinstance(value, numbers.Real):
        raise _type_error(argument, "a number of seconds", value)
    return value


def require_int(value: object, argument: str, within: Tuple[int, int] = INT64) -> int:
    """An integer (anything with __index__), but not a bool, in the range ``within``: by
    default the C library's int64_t, so that no number is cut down on its way there."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise _type_error(argument, "int", value)
    number = operator.index(value)  # type: ignore[arg-type]
    lowest, highest = within
    if not lowest <= number <= highest:
        raise error_for_status(
            _dlock.E_INVALID, f"{argument}: must be {lowest} to {highest}, got {number}"
        )
    return number


def require_callable_or_none(value: T, argument: str) -> T:
    if value is not None and not callable(value):
        raise _type_error(argument, "callable or None", value)
    return value


def refuse_unknown_keywords(function: str, keywords: Mapping[str, object]) -> None:
    """For functions that take ``**keywords`` only to explain a refusal. ``timeout=`` is
    refused by name: redis-py's ``lock(name, timeout=...)`` means the lease, threading's
    ``acquire(timeout=...)`` the wait, and a guess would be silently wrong either way."""
    if "timeout" in keywords:
        raise TypeError(
            f"{function}() does not take timeout=, which is ambiguous: use lease= for how long "
            "a hold lasts (redis-py's timeout=), blocking_timeout= for how long `with lock:` "
            "waits"
        )
    for keyword in keywords:
        raise TypeError(f"{function}() got an unexpected keyword argument {keyword!r}")
