"""Redis Cluster through the Python binding: one session cluster of 3 masters and 3
replicas, reached from a single seed; locks on every master, waiters woken across nodes
by sharded pub/sub, the semaphore and the latch, processes judged by the checker, and a
hold that survives a failover."""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterator

import pytest

import dlock
from checker import assert_exclusive
from polling import eventually
from redis_server import ClusterSet, RedisServer
from section_workers import run_section_workers

# A waiter woken by the release message acquires well within this; missing the message,
# it would sleep until the holder's 30 s lease or its own 20 s timeout.
PROMPT_SECONDS = 2.0


@pytest.fixture
def cluster_client(redis_cluster: ClusterSet) -> Iterator[dlock.Client]:
    with dlock.Client(redis_cluster.url) as opened:
        yield opened


@pytest.fixture
def rival(redis_cluster: ClusterSet) -> Iterator[dlock.Client]:
    """A second client, seeded with another node than the first."""
    with dlock.Client(redis_cluster.nodes[1].url) as opened:
        yield opened


def _has_key(node: RedisServer, key: str) -> bool:
    return node.cli("EXISTS", key) == "1"


def _assert_prompt_wake(wait: Callable[[], bool], release: Callable[[], None],
                        node: RedisServer, channel: str) -> None:
    """Runs ``wait`` on another thread, checks it blocks with a sharded subscription to
    ``channel`` on ``node``, calls ``release``: ``wait`` must then return True within
    PROMPT_SECONDS."""
    outcome: list[tuple[bool, float]] = []
    waiter = threading.Thread(target=lambda: outcome.append((wait(), time.monotonic())))
    waiter.start()
    try:
        assert eventually(lambda: channel in node.cli("PUBSUB", "SHARDCHANNELS").splitlines()), \
            f"the waiter never subscribed to {channel} on its node"
        assert not outcome, "the waiter did not block"
        released = time.monotonic()
        release()
    finally:
        waiter.join(30)
    assert outcome and outcome[0][0], "the waiter did not get what it waited for"
    seconds = outcome[0][1] - released
    assert seconds < PROMPT_SECONDS, f"{channel}: woke {seconds:.3f} s after the release"


def test_names_on_every_master_lock_and_unlock_from_one_seed(
    redis_cluster: ClusterSet, cluster_client: dlock.Client, rival: dlock.Client
) -> None:
    names = redis_cluster.names_on_each_master("py-cluster-each")
    assert len({redis_cluster.master_of(name).port for name in names}) == 3
    for name in names:
        master = redis_cluster.master_of(name)
        lock = cluster_client.lock(name)
        assert lock.acquire(blocking=False)
        assert _has_key(master, name)
        assert not rival.lock(name).acquire(blocking=False)
        lock.release()
        assert not _has_key(master, name)
        with cluster_client.lock(name) as held:
            assert held.fencing_token > 0
            assert rival.lock(name).locked()
        assert not _has_key(master, name)


def test_many_names_spread_over_the_slots_are_held_at_once(
    redis_cluster: ClusterSet, cluster_client: dlock.Client, rival: dlock.Client
) -> None:
    names = [f"py-cluster-many-{index}" for index in range(60)]
    locks = [cluster_client.lock(name) for name in names]
    for lock in locks:
        assert lock.acquire(blocking=False)
    try:
        holders = {redis_cluster.master_of(name).port for name in names}
        assert len(holders) == 3
        for name in names:
            assert _has_key(redis_cluster.master_of(name), name)
            assert not rival.lock(name).acquire(blocking=False)
    finally:
        for lock in locks:
            lock.release()
    assert not any(_has_key(redis_cluster.master_of(name), name) for name in names)


def test_a_url_with_several_seeds_skips_a_dead_one(redis_cluster: ClusterSet) -> None:
    with RedisServer() as gone:
        dead_port = gone.port  # closed once the server stopped
    live = redis_cluster.nodes[2].port
    with dlock.Client(f"redis://127.0.0.1:{dead_port},127.0.0.1:{live}") as client:
        with client.lock("py-cluster-seeds"):
            assert _has_key(redis_cluster.master_of("py-cluster-seeds"), "py-cluster-seeds")


def test_a_release_wakes_a_waiter_of_another_client_through_the_names_node(
    redis_cluster: ClusterSet, cluster_client: dlock.Client, rival: dlock.Client
) -> None:
    for name in redis_cluster.names_on_each_master("py-cluster-wake"):
        holder = cluster_client.lock(name)
        holder.acquire()
        waiting = rival.lock(name)

        def wait() -> bool:
            got = waiting.acquire(timeout=20)
            if got:
                waiting.release()
            return got

        _assert_prompt_wake(wait, holder.release, redis_cluster.master_of(name),
                            f"redisson_lock__channel:{{{name}}}")


def test_reentrancy_is_counted_in_the_client(
    redis_cluster: ClusterSet, cluster_client: dlock.Client, rival: dlock.Client
) -> None:
    name = "py-cluster-reentrant"
    master = redis_cluster.master_of(name)
    lock = cluster_client.lock(name)
    with lock:
        token = lock.fencing_token
        with lock:
            assert lock.hold_count == 2
            assert lock.fencing_token == token
            # Redisson's layout: one field, counted once, however many re-entries.
            assert master.cli("HVALS", name) == "1"
        assert lock.hold_count == 1
        assert _has_key(master, name)
        assert not rival.lock(name).acquire(blocking=False)
    assert not _has_key(master, name)
    assert rival.lock(name).acquire(blocking=False)
    rival.lock(name).release()


def test_a_semaphore_release_wakes_a_waiter_on_another_client(
    redis_cluster: ClusterSet, cluster_client: dlock.Client, rival: dlock.Client
) -> None:
    name = "py-cluster-semaphore"
    master = redis_cluster.master_of(name)
    semaphore = cluster_client.semaphore(name)
    assert semaphore.try_set_permits(1)
    assert semaphore.acquire(blocking=False)
    assert master.cli("GET", name) == "0"
    waiting = rival.semaphore(name)
    _assert_prompt_wake(lambda: waiting.acquire(timeout=20), semaphore.release, master,
                        f"redisson_sc:{{{name}}}")
    assert semaphore.available_permits() == 0
    waiting.release()
    assert master.cli("GET", name) == "1"


def test_a_latch_counted_down_to_zero_wakes_a_waiter_on_another_client(
    redis_cluster: ClusterSet, cluster_client: dlock.Client, rival: dlock.Client
) -> None:
    name = "py-cluster-latch"
    master = redis_cluster.master_of(name)
    latch = cluster_client.count_down_latch(name)
    assert latch.try_set_count(1)
    assert master.cli("GET", name) == "1"
    waiting = rival.count_down_latch(name)
    _assert_prompt_wake(lambda: waiting.wait(timeout=20), latch.count_down, master,
                        f"redisson_countdownlatch__channel__{{{name}}}")
    assert not _has_key(master, name)


def test_processes_seeded_on_different_nodes_never_overlap_on_any_master(
    redis_cluster: ClusterSet,
) -> None:
    names = redis_cluster.names_on_each_master("py-cluster-processes")
    urls = [node.url for node in redis_cluster.nodes[:3]]
    cycles = 20
    sections = run_section_workers(urls, names, cycles)
    for name in names:
        assert_exclusive(sections[name], expected=len(urls) * cycles)


def test_a_hold_replicated_with_sync_replicas_survives_its_master_failing(
    redis_cluster: ClusterSet,
) -> None:
    name = "py-cluster-failover"
    # The rival asks for no replica: with the old master dead, the promoted one has none
    # to confirm a grant, so only the hold may refuse it.
    with dlock.Client(redis_cluster.url, sync_replicas=1, command_timeout=8.0) as client, \
            dlock.Client(redis_cluster.nodes[1].url, command_timeout=8.0) as other:
        lock = client.lock(name)
        lock.acquire()
        old, promoted = redis_cluster.kill_master_of(name)
        try:
            assert _has_key(promoted, name), "the promoted replica lost the hold"
            assert int(promoted.cli("PTTL", name)) > 0
            assert not other.lock(name).acquire(blocking=False), "a second holder"
            assert lock.held
            lock.release()
            assert not _has_key(promoted, name)
            taken = other.lock(name)
            assert taken.acquire(blocking=False)
            taken.release()
        finally:
            # The old master comes back as the promoted node's replica, for the next tests.
            old.restart()
            redis_cluster.wait_healthy()
