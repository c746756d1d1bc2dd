"""Python's status table agrees with include/dlock.h, the one place the codes are defined."""

from __future__ import annotations

import re
from pathlib import Path

import dlock
from dlock import _dlock
from dlock.errors import _BY_STATUS, error_for_status

HEADER = Path(__file__).resolve().parents[3] / "include" / "dlock.h"
STATUS_LINE = re.compile(r"^#define DLOCK_(OK|NOT_ACQUIRED|E_[A-Z_]+) \(?(-?\d+)\)?$", re.MULTILINE)
OUTCOMES = {"OK", "NOT_ACQUIRED"}


def header_statuses() -> dict[str, int]:
    return {name: int(value) for name, value in STATUS_LINE.findall(HEADER.read_text())}


def header_errors() -> dict[str, int]:
    return {name: value for name, value in header_statuses().items() if name not in OUTCOMES}


def test_the_header_is_parsed() -> None:
    statuses = header_statuses()
    assert statuses["OK"] == 0
    assert statuses["NOT_ACQUIRED"] == 1
    assert statuses["E_INVALID"] == -1
    assert statuses["E_INTERNAL"] == -11


def test_the_extension_exports_exactly_the_header_statuses() -> None:
    exported = {
        name: value
        for name, value in vars(_dlock).items()
        if name in OUTCOMES or name.startswith("E_")
    }
    assert exported == header_statuses()


def test_every_error_status_raises_its_own_class() -> None:
    classes: dict[type, str] = {}
    for name, status in header_errors().items():
        error = error_for_status(status, "message")
        assert type(error) is not dlock.DlockError, f"DLOCK_{name} has no exception class"
        assert error.status == status
        assert str(error) == "message"
        classes[type(error)] = name
    assert len(classes) == len(header_errors()), "two statuses share a class"


def test_ok_is_no_error_and_not_acquired_is_a_lock_timeout() -> None:
    statuses = header_statuses()
    assert statuses["OK"] not in _BY_STATUS
    assert _BY_STATUS[statuses["NOT_ACQUIRED"]] is dlock.LockTimeoutError


def test_python_knows_no_stale_status() -> None:
    assert set(_BY_STATUS) <= set(header_statuses().values())
    defined = {
        value
        for value in vars(dlock.errors).values()
        if isinstance(value, type) and issubclass(value, dlock.DlockError)
    }
    # LockExpiredError is E_LOST's when the library calls the loss an expiry;
    # LatchLostError is E_LOST's from a latch wait (dlock.count_down_latch).
    expected = {dlock.DlockError, dlock.LockExpiredError, dlock.LatchLostError}
    assert defined - set(_BY_STATUS.values()) == expected, "a class no status raises"


def test_an_expiry_is_raised_as_a_lost_lock_subclass() -> None:
    statuses = header_statuses()
    error = error_for_status(statuses["E_LOST"], "expired", True)
    assert type(error) is dlock.LockExpiredError
    assert isinstance(error, dlock.LockLostError)
    assert error.status == statuses["E_LOST"]
    assert type(error_for_status(statuses["E_LOST"], "lost")) is dlock.LockLostError
    assert type(error_for_status(statuses["E_INVALID"], "bad", True)) is dlock.InvalidArgumentError


def test_internal_error_is_a_runtime_error() -> None:
    error = error_for_status(_dlock.E_INTERNAL, "defect")
    assert isinstance(error, dlock.InternalError)
    assert isinstance(error, RuntimeError)
    assert _dlock.strerror(_dlock.E_INTERNAL) == "internal error in dlock"
