"""A wrong argument type is a TypeError naming the argument, never a crash.

Each check of a call that once crashed the interpreter runs in a child process, so a
segfault fails that test instead of ending pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

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
