"""A wrong argument type is a TypeError naming the argument, never a crash.

Each check of a call that once crashed the interpreter runs in a child process, so a
segfault fails that test instead of ending pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from typing import Callable

import pytest

import dlock
from redis_server import RedisServer

# The child prints the exception type and message, or "returned" when nothing was raised.
_CHILD = textwrap.dedent(
    """
    import sys
    import dlock

    url = sys.argv[1]
    client = dlock.Client(url)
    try:
        {call}
    except Exception as error:
        print(type(error).__name__, error, flush=True)
    else:
        print("returned", flush=True)
    client.close()
    """
)


def _outcome_in_child(call: str, url: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", _CHILD.format(call=call), url],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, f"{call} ended the interpreter ({result.returncode})"
    return result.stdout.strip()


@pytest.mark.parametrize(
    ("call", "argument", "type_name"),
    [
        ("dlock.Client(42)", "url", "int"),
        ("dlock.Client(None)", "url", "NoneType"),
        ("dlock.Client(url.encode())", "url", "bytes"),
        ("client.lock(42)", "name", "int"),
        ("client.lock(None)", "name", "NoneType"),
        ("client.lock(b'x')", "name", "bytes"),
        ("client.lock(b'\\xff')", "name", "bytes"),
    ],
)
def test_wrong_type_is_a_type_error_naming_the_argument(
    redis_server: RedisServer, call: str, argument: str, type_name: str
) -> None:
    outcome = _outcome_in_child(call, redis_server.url)
    assert outcome == f"TypeError {argument}: must be str, got {type_name}"


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        ("client.permit_expirable_semaphore('nul-check').release('a\\x00b')", "permit_id"),
        ("client.permit_expirable_semaphore('nul-check').try_release('a\\x00b')", "permit_id"),
        ("client.lock('nul-check').count_attempt('a\\x00b', 1, 1)", "period_id"),
    ],
)
def test_nul_in_a_string_argument_is_an_invalid_argument_error(
    redis_server: RedisServer, call: str, argument: str
) -> None:
    """A permit id taken from a request once killed the interpreter: the error was raised
    with the GIL released."""
    outcome = _outcome_in_child(call, redis_server.url)
    assert outcome == f"InvalidArgumentError {argument} must not contain a NUL character"


@pytest.mark.parametrize("bad_name", ["42", "None", "b'x'", "4.2"])
def test_native_lock_refuses_a_non_str_name(redis_server: RedisServer, bad_name: str) -> None:
    """The private module too: no crash, whichever pybind11 built it."""
    outcome = _outcome_in_child(f"client._native.lock({bad_name})", redis_server.url)
    assert outcome.startswith("TypeError")


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"connect_timeout": "1"}, "connect_timeout"),
        ({"command_timeout": b"1"}, "command_timeout"),
        ({"watchdog_timeout": [1]}, "watchdog_timeout"),
        ({"pool_size": "8"}, "pool_size"),
        ({"pool_size": 1.5}, "pool_size"),
        ({"pool_size": None, "connect_timeout": None, "command_timeout": 2j}, "command_timeout"),
    ],
)
def test_wrong_client_option_types(options: dict[str, object], argument: str) -> None:
    with pytest.raises(TypeError, match=f"^{argument}: must be "):
        dlock.Client("redis://127.0.0.1:1", **options)  # type: ignore[arg-type]


def test_out_of_range_pool_size_is_a_value_error() -> None:
    with pytest.raises(dlock.InvalidArgumentError, match="^pool_size: "):
        dlock.Client("redis://127.0.0.1:1", pool_size=2**40)  # beyond the C int32_t


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"lease": "1"}, "lease"),
        ({"blocking_timeout": "1"}, "blocking_timeout"),
        ({"blocking_timeout": None}, "blocking_timeout"),
        ({"on_lost": 42}, "on_lost"),
    ],
)
def test_wrong_lock_option_types(
    client: dlock.Client, name: str, options: dict[str, object], argument: str
) -> None:
    with pytest.raises(TypeError, match=f"^{argument}: must be "):
        client.lock(name, **options)  # type: ignore[arg-type]


def test_wrong_acquire_timeout_type(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    with pytest.raises(TypeError, match="^timeout: must be "):
        lock.acquire(timeout="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^timeout: must be "):
        lock.acquire(blocking=False, timeout="1")  # type: ignore[arg-type]
    assert lock.hold_count == 0


def test_non_ascii_name_round_trips_through_loss_reporting(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    """What bytes names broke: the name comes back as str in Lock.name, on_lost and release."""
    lost = []
    noticed = threading.Event()
    unicode_name = f"{name}-schloß-锁"

    def on_lost(lost_name: str, token: int) -> None:
        lost.append(lost_name)
        noticed.set()

    lock = client.lock(unicode_name, on_lost=on_lost)
    assert lock.name == unicode_name
    lock.acquire()
    other_client.lock(unicode_name).force_release()
    with pytest.raises(dlock.LockLostError):
        lock.release()
    assert noticed.wait(5) and lost == [unicode_name]


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda client, name: client.lock("a\ud800"), "name"),
        (lambda client, name: client.semaphore("\udc00"), "name"),
        (lambda client, name: client.permit_expirable_semaphore(name).release("\ud800"), "permit_id"),
        (lambda client, name: client.lock(name).count_attempt("p\udfff", 1, 1), "period_id"),
    ],
)
def test_lone_surrogate_is_an_invalid_argument_error(
    client: dlock.Client, name: str, call: Callable[[dlock.Client, str], object], argument: str
) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match=f"^{argument}: must be valid Unicode text"):
        call(client, name)


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda client, name: client.semaphore(name).release(2**31), "permits"),
        (lambda client, name: client.semaphore(name).acquire(permits=-(2**31) - 1), "permits"),
        (lambda client, name: client.permit_expirable_semaphore(name).try_set_permits(2**64), "permits"),
        (lambda client, name: client.count_down_latch(name).try_set_count(2**63), "count"),
        (lambda client, name: client.lock(name).count_attempt("p", 1, 10**100), "max_attempts"),
    ],
)
def test_integer_beyond_the_c_type_is_an_invalid_argument_error(
    client: dlock.Client, name: str, call: Callable[[dlock.Client, str], object], argument: str
) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match=f"^{argument}: must be -"):
        call(client, name)


@pytest.mark.parametrize("seconds", [10**400, -(10**400), float("nan"), float("inf")])
def test_huge_or_non_finite_seconds_are_invalid_argument_errors(
    client: dlock.Client, name: str, seconds: float
) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match="^timeout"):
        client.lock(name).acquire(timeout=seconds)
