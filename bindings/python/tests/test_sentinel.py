"""Sentinel: a `with` lock held through a failover stays held (sync_replicas=1), the
client follows the new master by itself, and the release there wakes the next holder."""

from __future__ import annotations

from typing import Iterator

import pytest

import dlock
from polling import eventually
from redis_server import SentinelSet


@pytest.fixture(scope="module")
def sentinels() -> Iterator[SentinelSet]:
    with SentinelSet() as started:
        yield started


def test_a_with_lock_held_through_a_failover_stays_held(sentinels: SentinelSet) -> None:
    with dlock.Client(sentinels.url, sync_replicas=1, sync_timeout=0.5) as client, \
            dlock.Client(sentinels.url, sync_replicas=1, sync_timeout=0.5) as rival:
        with client.lock("py-failover"):
            old = sentinels.master_port()
            new = sentinels.failover()
            assert new != old
            assert eventually(lambda: client.stats()["failovers"] >= 1, timeout=5)
            assert sentinels.node(new).cli("EXISTS", "py-failover") == "1"
            assert not rival.lock("py-failover").acquire(blocking=False)
        # Released on the new master: the rival gets it once its replicas follow (WAIT).
        taken = rival.lock("py-failover")
        assert taken.acquire(timeout=15)
        taken.release()


def test_sync_options_are_checked(sentinels: SentinelSet) -> None:
    with pytest.raises(ValueError, match="sync_replicas"):
        dlock.Client(sentinels.url, sync_replicas=-1)
    with pytest.raises(ValueError, match="sync_timeout"):
        dlock.Client(sentinels.url, sync_replicas=1, sync_timeout=10)
