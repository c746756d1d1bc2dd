"""The lock behaves like threading.RLock, plus leases, fencing tokens, ttl and on_lost."""

from __future__ import annotations

import threading
import time

import pytest
import redis

import dlock
from redis_server import RedisServer


def test_acquire_release_and_reentry(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    lock = client.lock(name)
    assert lock.acquire()
    token = lock.fencing_token
    assert lock.acquire() and lock.acquire(blocking=False)
    assert lock.hold_count == 3
    assert lock.fencing_token == token  # a re-entry keeps the hold's token
    assert lock.held and lock.locked()
    lock.release()
    lock.release()
    assert raw.exists(name)
    lock.release()
    assert lock.hold_count == 0 and not lock.held
    assert not raw.exists(name) and not lock.locked()


def test_tokens_rise_over_grants(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    tokens = []
    for _ in range(5):
        with lock:
            tokens.append(lock.fencing_token)
    assert tokens == sorted(set(tokens))


def test_with_statement_returns_the_lock(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    with lock as entered:
        assert entered is lock and lock.hold_count == 1
    assert lock.hold_count == 0


def test_other_client_cannot_take_a_held_lock(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    mine, theirs = client.lock(name), other_client.lock(name)
    with mine:
        assert not theirs.acquire(blocking=False)
        started = time.monotonic()
        assert not theirs.acquire(timeout=0.3)
        assert time.monotonic() - started >= 0.29
        assert theirs.locked()
    assert theirs.acquire(blocking=False)
    theirs.release()


def test_ownership_is_per_thread(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    outcomes: dict[str, object] = {}

    def other_thread() -> None:
        outcomes["acquired"] = lock.acquire(blocking=False)
        try:
            lock.release()
        except RuntimeError as error:
            outcomes["release"] = error

    with lock:
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
        assert lock.hold_count == 1
    assert outcomes["acquired"] is False
    assert isinstance(outcomes["release"], dlock.LockNotOwnedError)


def test_waiting_thread_wakes_on_release(client: dlock.Client, name: str) -> None:
    lock = client.lock(name)
    lock.acquire()
    result: list[bool] = []
    waiter = threading.Thread(target=lambda: result.append(lock.acquire(timeout=10)))
    waiter.start()
    time.sleep(0.2)
    assert waiter.is_alive()
    released = time.monotonic()
    lock.release()
    waiter.join(5)
    assert result == [True] and time.monotonic() - released < 5
    assert lock.locked()


def test_other_threads_run_while_one_waits(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    """A wait releases the GIL: a pure-Python thread keeps counting meanwhile."""
    holder = other_client.lock(name)
    holder.acquire()
    stop = threading.Event()
    counted = [0]

    def count() -> None:
        while not stop.is_set():
            counted[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    assert not client.lock(name).acquire(timeout=0.5)  # the main thread waits
    stop.set()
    counter.join()
    holder.release()
    assert counted[0] > 10_000


def test_fixed_lease_expires_and_late_release_is_lost(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    lock = client.lock(name, lease=0.4)
    lock.acquire()
    ttl = lock.ttl
    assert ttl is not None and 0 < ttl <= 0.4
    theirs = other_client.lock(name)
    assert theirs.acquire(timeout=3)
    with pytest.raises(dlock.LockLostError):
        lock.release()
    assert raw.exists(name)  # the new holder's hold is untouched


def test_watchdog_keeps_the_lease_alive(redis_server: RedisServer, raw: redis.Redis, name: str) -> None:
    with dlock.Client(redis_server.url, watchdog_timeout=0.6) as client:
        with client.lock(name) as lock:
            time.sleep(1.5)
            assert raw.exists(name) and lock.held
            ttl = lock.ttl
            assert ttl is not None and ttl <= 0.6


def test_ttl_is_none_when_free(client: dlock.Client, name: str) -> None:
    assert client.lock(name).ttl is None


def test_force_release_calls_on_lost(
    redis_server: RedisServer, other_client: dlock.Client, name: str
) -> None:
    lost = []
    noticed = threading.Event()

    def on_lost(lost_name: str, token: int) -> None:
        lost.append((lost_name, token))
        noticed.set()

    with dlock.Client(redis_server.url, watchdog_timeout=0.6) as client:
        lock = client.lock(name, on_lost=on_lost)
        lock.acquire()
        token = lock.fencing_token
        assert other_client.lock(name).force_release() is True
        assert other_client.lock(name).force_release() is False, "a free lock was 'released'"
        assert noticed.wait(5)
        assert lost == [(name, token)]
        with pytest.raises(dlock.LockLostError):
            lock.release()


def test_on_lost_exceptions_go_to_unraisablehook(
    redis_server: RedisServer, other_client: dlock.Client, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reported = threading.Event()
    monkeypatch.setattr("sys.unraisablehook", lambda unraisable: reported.set())

    def on_lost(lost_name: str, token: int) -> None:
        raise ValueError("from the callback")

    with dlock.Client(redis_server.url, watchdog_timeout=0.6) as client:
        lock = client.lock(name, on_lost=on_lost)
        lock.acquire()
        other_client.lock(name).force_release()
        assert reported.wait(5)


def test_with_timeout_raises_timeout_error(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with other_client.lock(name):
        with pytest.raises(TimeoutError) as caught:
            with client.lock(name, blocking_timeout=0.2):
                pytest.fail("entered a held lock")
        assert isinstance(caught.value, dlock.LockTimeoutError)


def test_loss_does_not_mask_the_block_error(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with pytest.raises(KeyError) as caught:
        with client.lock(name):
            other_client.lock(name).force_release()
            raise KeyError("from the block")
    assert any(name in note for note in getattr(caught.value, "__notes__", []))


def test_loss_is_raised_when_leaving_a_block(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with pytest.raises(dlock.LockLostError):
        with client.lock(name):
            other_client.lock(name).force_release()


def test_synchronized_function(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    @client.synchronized(name)
    def guarded(value: int) -> int:
        assert raw.exists(name)
        return value * 2

    assert guarded(21) == 42
    assert guarded.__name__ == "guarded"
    assert not raw.exists(name)


def test_closing_the_client_releases_its_locks(
    redis_server: RedisServer, raw: redis.Redis, name: str
) -> None:
    client = dlock.Client(redis_server.url)
    lock = client.lock(name)
    lock.acquire()
    client.close()
    assert not raw.exists(name)
    with pytest.raises(dlock.ClientClosedError):
        lock.release()


def test_a_blocking_acquire_respects_a_named_waiters_turn_where_a_try_barges(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    # Another owner's turn on the free lock, as a release that named a waiter leaves it.
    raw.set(f"dlock_turn:{{{name}}}", "someone-else", px=5000)
    lock = client.lock(name)
    assert not lock.acquire(timeout=0.3), "a blocking acquire overtook the waiter a release named"
    assert not raw.exists(name)
    assert lock.acquire(blocking=False), "a try barges"
    lock.release()
