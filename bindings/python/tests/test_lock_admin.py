"""Kept holds, inspection and attempt counters: what the dlock command's once-per-period
jobs and `dlock status` use, from Python."""

from __future__ import annotations

import math
import time

import pytest
import redis

import dlock


def test_release_keeping_leaves_the_lock_taken_then_lets_it_lapse(
    client: dlock.Client, raw: redis.Redis
) -> None:
    lock = client.lock("py-keep")
    assert lock.acquire()
    lock.release_keeping(0.5)
    assert not lock.held
    assert raw.exists("py-keep") == 1
    assert not lock.acquire(blocking=False), "the same owner took a kept lock"
    time.sleep(0.7)
    assert raw.exists("py-keep") == 0, "the kept hold did not lapse (still renewed?)"
    assert lock.acquire(blocking=False)
    lock.release()


def test_release_keeping_needs_an_outermost_hold_of_the_caller(client: dlock.Client) -> None:
    lock = client.lock("py-keep-rules")
    with pytest.raises(dlock.LockNotOwnedError):
        lock.release_keeping(1)
    with lock, lock:
        with pytest.raises(dlock.InvalidArgumentError):
            lock.release_keeping(1)
    with pytest.raises(dlock.InvalidArgumentError, match="seconds"):
        lock.release_keeping(0)


def test_inspect_shows_holders_lease_and_last_token(client: dlock.Client) -> None:
    lock = client.lock("py-inspect")
    empty = lock.inspect()
    assert not empty.locked and empty.holders == () and empty.ttl is None
    with lock:
        token = lock.fencing_token
        info = lock.inspect()
        assert info.locked
        assert len(info.holders) == 1 and info.holders[0].hold_count == 1
        assert 0 < info.ttl <= 30
        assert info.last_fencing_token == token
    assert lock.inspect().last_fencing_token == token


def test_inspect_of_a_key_that_is_no_lock_is_a_protocol_error(
    client: dlock.Client, raw: redis.Redis
) -> None:
    raw.set("py-not-a-lock", "x")
    with pytest.raises(dlock.ProtocolError):
        client.lock("py-not-a-lock").inspect()
    assert raw.get("py-not-a-lock") == "x"


def test_count_attempt_stops_at_the_limit_and_lapses(client: dlock.Client) -> None:
    lock = client.lock("py-attempts")
    assert [lock.count_attempt("p1", 0.4, 2) for _ in range(3)] == [1, 2, None]
    assert lock.count_attempt("p2", 10, 2) == 1, "periods share a counter"
    time.sleep(0.6)
    assert lock.count_attempt("p1", 0.4, 2) == 1, "the counter did not lapse"


def test_count_attempt_arguments_are_checked(client: dlock.Client) -> None:
    lock = client.lock("py-attempts-bad")
    with pytest.raises(TypeError, match="period_id"):
        lock.count_attempt(7, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_attempts"):
        lock.count_attempt("p", 1, 1.5)  # type: ignore[arg-type]
    with pytest.raises(dlock.InvalidArgumentError, match="expires_in"):
        lock.count_attempt("p", -1, 1)
    with pytest.raises(dlock.InvalidArgumentError):
        lock.count_attempt("p", 1, 0)


def test_a_lock_with_no_expiry_reads_as_infinite_ttl(client: dlock.Client, raw: redis.Redis) -> None:
    raw.hset("py-forever", "someone:1", 1)
    assert client.lock("py-forever").inspect().ttl == math.inf
