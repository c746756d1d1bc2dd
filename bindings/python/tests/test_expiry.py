"""SPEC 14, issue 22: a fixed lease that runs out as asked is an expiry, not a loss:
``stats()["expiries"]``, an INFO record, and LockExpiredError (a LockLostError) from the
release. A watchdog lease that lapses, or a fixed lease taken before its end, stays a loss."""

from __future__ import annotations

import asyncio
import logging

import pytest
import redis

import dlock
from polling import eventually
from redis_server import RedisServer

LEASE = 0.3


def dlock_records(caplog: pytest.LogCaptureFixture, level: int, *parts: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "dlock" and r.levelno == level and all(p in r.getMessage() for p in parts)
    ]


def test_a_fixed_lease_that_runs_out_is_an_expiry(
    client: dlock.Client, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dlock")
    lost: list[tuple[str, int]] = []
    lock = client.lock(name, lease=LEASE, on_lost=lambda n, token: lost.append((n, token)))
    assert lock.acquire()
    assert eventually(lambda: client.stats()["expiries"] == 1)
    with pytest.raises(dlock.LockExpiredError) as raised:
        lock.release()
    assert isinstance(raised.value, dlock.LockLostError), "except LockLostError must still catch it"
    assert "ran out as asked" in str(raised.value)
    stats = client.stats()
    assert stats["expiries"] == 1
    assert stats["locks_lost"] == 0
    assert eventually(lambda: dlock_records(caplog, logging.INFO, f"'{name}'", "expired after"))
    assert not dlock_records(caplog, logging.WARNING, f"'{name}'"), caplog.text
    assert eventually(lambda: len(lost) == 1), "on_lost still tells the holder its section is unprotected"


def test_every_fixed_lease_primitive_expires(client: dlock.Client, name: str) -> None:
    holds = [
        client.fair_lock(f"{name}-fair", lease=LEASE),
        client.read_write_lock(f"{name}-rw", lease=LEASE).read_lock(),
        client.read_write_lock(f"{name}-rw2", lease=LEASE).write_lock(),
    ]
    for lock in holds:
        assert lock.acquire()
    semaphore = client.permit_expirable_semaphore(f"{name}-permits")
    assert semaphore.try_set_permits(1)
    permit = semaphore.acquire(timeout=0, lease=LEASE)
    assert permit is not None
    assert eventually(lambda: client.stats()["expiries"] == 4)
    for lock in holds:
        with pytest.raises(dlock.LockExpiredError):
            lock.release()
    with pytest.raises(dlock.LockExpiredError):
        permit.release()
    assert client.stats()["locks_lost"] == 0


def test_an_asynchronous_release_raises_the_expiry(client: dlock.Client, name: str) -> None:
    lock = client.lock(name, lease=LEASE)

    async def hold_past_the_lease() -> None:
        assert await lock.acquire_async()
        while client.stats()["expiries"] == 0:
            await asyncio.sleep(0.05)
        await lock.release_async()

    with pytest.raises(dlock.LockExpiredError):
        asyncio.run(asyncio.wait_for(hold_past_the_lease(), 5))


def test_a_watchdog_hold_whose_key_is_deleted_is_still_lost(
    redis_server: RedisServer, raw: redis.Redis, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dlock")
    with dlock.Client(redis_server.url, watchdog_timeout=0.9) as client:
        lock = client.lock(name)
        assert lock.acquire()
        raw.delete(name)
        assert eventually(lambda: client.stats()["locks_lost"] == 1)
        with pytest.raises(dlock.LockLostError) as raised:
            lock.release()
        assert not isinstance(raised.value, dlock.LockExpiredError)
        assert client.stats()["expiries"] == 0
        assert eventually(lambda: dlock_records(caplog, logging.WARNING, f"'{name}'", "lost after"))


def test_a_fixed_lease_force_released_before_its_end_is_lost(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    lock = client.lock(name, lease=10)
    assert lock.acquire()
    other_client.lock(name).force_release()
    with pytest.raises(dlock.LockLostError) as raised:
        lock.release()
    assert not isinstance(raised.value, dlock.LockExpiredError)
    stats = client.stats()
    assert stats["locks_lost"] == 1
    assert stats["expiries"] == 0
