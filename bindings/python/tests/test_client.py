"""Client life cycle: close wakes waiters, locks keep their client, exit releases holds."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
import time

import pytest
import redis

import dlock
from redis_server import RedisServer


def test_close_wakes_a_waiting_thread(
    redis_server: RedisServer, other_client: dlock.Client, name: str
) -> None:
    holder = other_client.lock(name)
    holder.acquire()
    client = dlock.Client(redis_server.url)
    outcome: list[BaseException] = []

    def wait() -> None:
        try:
            client.lock(name).acquire()
        except dlock.DlockError as error:
            outcome.append(error)

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.2)
    client.close()
    waiter.join(5)
    holder.release()
    assert not waiter.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], dlock.ClientClosedError)


def test_a_lock_keeps_its_client_alive(redis_server: RedisServer, name: str) -> None:
    lock = dlock.Client(redis_server.url).lock(name)
    gc.collect()
    with lock:
        assert lock.held


def test_client_context_manager_closes(redis_server: RedisServer) -> None:
    with dlock.Client(redis_server.url) as client:
        assert not client.closed
    assert client.closed
    assert "closed" in repr(client)


def test_interpreter_exit_releases_held_locks(
    redis_server: RedisServer, raw: redis.Redis, name: str
) -> None:
    script = textwrap.dedent(
        """
        import sys
        import dlock
        client = dlock.Client(sys.argv[1])
        lock = client.lock(sys.argv[2])
        lock.acquire()
        print("held", flush=True)
        """
    )
    subprocess.run([sys.executable, "-c", script, redis_server.url, name], check=True,
                   capture_output=True)
    assert not raw.exists(name)  # released at exit, not left for its 30 s lease


@pytest.mark.parametrize("pool_size", [0, -1])
def test_bad_pool_size_is_a_value_error(redis_server: RedisServer, pool_size: int) -> None:
    with pytest.raises(ValueError):
        dlock.Client(redis_server.url, pool_size=pool_size)


def test_a_redis_client_is_served_by_the_redis_backend(redis_server: RedisServer) -> None:
    client = dlock.Client(redis_server.url)
    assert client.backend == "redis"
    client.close()
    assert client.backend == "redis"


def test_an_unknown_scheme_is_refused_naming_it() -> None:
    # Every planned backend is in this build: a scheme dlock has none for is
    # refused before any connection, naming the scheme.
    with pytest.raises(dlock.InvalidArgumentError) as raised:
        dlock.Client("ftp://app:s3cret@127.0.0.1:21/app")
    assert "unknown scheme 'ftp'" in str(raised.value)
    assert "s3cret" not in str(raised.value)
    assert isinstance(raised.value, ValueError)
