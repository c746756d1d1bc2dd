"""Bad arguments and failures map to one exception hierarchy, catchable as the builtins."""

from __future__ import annotations

import builtins
import math

import pytest
import redis

import dlock
from dlock import _dlock
from redis_server import RedisServer


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (dlock.InvalidArgumentError, ValueError),
        (dlock.ConnectionError, builtins.ConnectionError),
        (dlock.AuthenticationError, builtins.ConnectionError),
        (dlock.LockNotOwnedError, RuntimeError),
        (dlock.LockLostError, RuntimeError),
        (dlock.ClientClosedError, RuntimeError),
        (dlock.LockTimeoutError, TimeoutError),
        (dlock.OutOfMemoryError, MemoryError),
        (dlock.UnsupportedError, NotImplementedError),
        (dlock.InternalError, RuntimeError),
        (dlock.ProtocolError, dlock.DlockError),
        (dlock.AcquireInterruptedError, dlock.DlockError),
    ],
)
def test_each_error_is_a_dlock_error_and_its_builtin(error: type, builtin: type) -> None:
    assert issubclass(error, dlock.DlockError)
    assert issubclass(error, builtin)


def test_unreachable_redis_is_a_builtin_connection_error() -> None:
    with pytest.raises(builtins.ConnectionError) as caught:
        dlock.Client("redis://127.0.0.1:1", connect_timeout=1.0)
    assert isinstance(caught.value, dlock.ConnectionError)
    assert caught.value.status == _dlock.E_CONNECTION
    assert "127.0.0.1:1" in str(caught.value)


def test_password_never_appears_in_messages() -> None:
    with pytest.raises(dlock.ConnectionError) as caught:
        dlock.Client("redis://user:s3cret-pw@127.0.0.1:1")
    assert "s3cret-pw" not in str(caught.value)


@pytest.mark.parametrize("url", ["", "bogus://host", "redis://host:notaport", "redis://a\0b"])
def test_malformed_url_is_a_value_error(url: str) -> None:
    with pytest.raises(ValueError):
        dlock.Client(url)


@pytest.mark.parametrize("option", ["connect_timeout", "command_timeout", "watchdog_timeout"])
@pytest.mark.parametrize("value", [0, -1.0, math.nan])
def test_bad_client_times_are_value_errors(option: str, value: float) -> None:
    with pytest.raises(dlock.InvalidArgumentError):
        dlock.Client("redis://127.0.0.1:1", **{option: value})


@pytest.mark.parametrize("bad_name", ["", "a\0b", "x" * (_dlock.NAME_MAX + 1), "job{"])
def test_bad_names_are_value_errors(client: dlock.Client, bad_name: str) -> None:
    with pytest.raises(dlock.InvalidArgumentError):
        client.lock(bad_name)


@pytest.mark.parametrize("lease", [0, -1, -0.5, math.nan])
def test_bad_leases_are_value_errors(client: dlock.Client, name: str, lease: float) -> None:
    with pytest.raises(dlock.InvalidArgumentError):
        client.lock(name, lease=lease)


def test_acquire_argument_errors_match_threading(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    with pytest.raises(ValueError, match="non-blocking"):
        lock.acquire(blocking=False, timeout=1)
    with pytest.raises(ValueError, match="positive"):
        lock.acquire(timeout=-2)
    with pytest.raises(ValueError):
        lock.acquire(timeout=math.nan)
    with pytest.raises(ValueError):
        lock.acquire(timeout=1e300)
    with pytest.raises(TypeError):
        lock.acquire(timeout=None)  # type: ignore[arg-type]
    assert lock.hold_count == 0


def test_release_without_holding_is_a_runtime_error(client: dlock.Client, name: str) -> None:
    with pytest.raises(RuntimeError) as caught:
        client.lock(name).release()
    assert isinstance(caught.value, dlock.LockNotOwnedError)


def test_fencing_token_without_holding_is_an_error(client: dlock.Client, name: str) -> None:
    with pytest.raises(dlock.LockNotOwnedError):
        client.lock(name).fencing_token


def test_wrong_key_type_is_a_protocol_error_and_key_untouched(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    raw.set(name, "not a lock")
    with pytest.raises(dlock.ProtocolError):
        client.lock(name).acquire(blocking=False)
    assert raw.get(name) == "not a lock"


def test_closed_client(redis_server: RedisServer, name: str) -> None:
    client = dlock.Client(redis_server.url)
    lock = client.lock(name)
    client.close()
    client.close()
    assert client.closed
    with pytest.raises(dlock.ClientClosedError):
        client.lock(name)
    with pytest.raises(dlock.ClientClosedError):
        lock.acquire()
