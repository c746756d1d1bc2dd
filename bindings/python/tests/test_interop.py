"""Interop on Redisson's layout: locks taken by raw commands, and by another client."""

from __future__ import annotations

import threading
import time

import redis

import dlock


def _channel(name: str) -> str:
    return f"redisson_lock__channel:{name}" if "{" in name else f"redisson_lock__channel:{{{name}}}"


def _token_key(name: str) -> str:
    return f"redisson_lock_token:{name}" if "{" in name else f"redisson_lock_token:{{{name}}}"


def test_lock_taken_by_raw_commands_is_respected(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    raw.hset(name, "a-redisson-client:1", 1)
    raw.pexpire(name, 10_000)
    lock = client.lock(name)
    assert not lock.acquire(blocking=False)
    assert lock.locked()
    ttl = lock.ttl
    assert ttl is not None and 9 < ttl <= 10

    acquired = []
    waiter = threading.Thread(target=lambda: acquired.append(lock.acquire(timeout=8)))
    waiter.start()
    time.sleep(0.3)
    # Redisson's unlock: delete the key, publish 0 on the lock's channel.
    released_at = time.monotonic()
    raw.delete(name)
    raw.publish(_channel(name), 0)
    waiter.join(10)
    assert acquired == [True]
    assert time.monotonic() - released_at < 2  # woken by the message, not the 10 s lease


def test_dlock_hold_uses_redisson_layout(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    subscriber = raw.pubsub()
    subscriber.subscribe(_channel(name))
    subscriber.get_message(timeout=1)  # the subscribe confirmation
    lock = client.lock(name)
    with lock:
        assert raw.type(name) == "hash"
        fields = raw.hgetall(name)
        assert len(fields) == 1
        (field, count), = fields.items()
        assert count == "1" and ":" in field
        assert 0 < raw.pttl(name) <= 30_000
        assert int(raw.get(_token_key(name))) == lock.fencing_token
        assert raw.ttl(_token_key(name)) == -1
    message = subscriber.get_message(timeout=2)
    assert message is not None and message["data"] == "0"
    subscriber.close()


def test_hash_tagged_name_keeps_its_tag(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    tagged = f"job{{{name}}}"
    with client.lock(tagged) as lock:
        assert raw.exists(tagged)
        assert int(raw.get(_token_key(tagged))) == lock.fencing_token


def test_token_grows_past_a_counter_set_by_another_client(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    raw.set(_token_key(name), 1000)
    with client.lock(name) as lock:
        assert lock.fencing_token > 1000


def test_hand_off_between_clients(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    first, second = client.lock(name), other_client.lock(name)
    first.acquire()
    first_token = first.fencing_token
    got: list[int] = []

    def wait_then_record() -> None:
        with second:
            got.append(second.fencing_token)

    waiter = threading.Thread(target=wait_then_record)
    waiter.start()
    time.sleep(0.2)
    assert not got
    first.release()
    waiter.join(5)
    assert got and got[0] > first_token
