"""dlock.Client("zookeeper://...") against a real ZooKeeper server: the same Lock objects,
served in Curator's layout (tests/support/zookeeper_server.py starts the server)."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Iterator

import pytest

import dlock
from zookeeper_server import ZooKeeperServer, classpath

pytestmark = pytest.mark.skipif(classpath() is None, reason="no ZooKeeper server (Debian's zookeeper, java)")


@pytest.fixture(scope="module")
def zookeeper() -> Iterator[ZooKeeperServer]:
    with ZooKeeperServer() as server:
        yield server


@pytest.fixture
def zk_client(zookeeper: ZooKeeperServer) -> Iterator[dlock.Client]:
    with dlock.Client(zookeeper.url) as opened:
        yield opened


@pytest.fixture
def path() -> str:
    return f"/app/locks/{uuid.uuid4().hex}"


def test_the_client_names_its_backend(zk_client: dlock.Client) -> None:
    assert zk_client.backend == "zookeeper"


def test_a_lock_is_reentrant_fenced_and_excludes_another_client(
        zookeeper: ZooKeeperServer, zk_client: dlock.Client, path: str) -> None:
    with dlock.Client(zookeeper.url) as other:
        mine = zk_client.lock(path)
        theirs = other.lock(path)
        with mine:
            first = mine.fencing_token
            with mine:  # re-entry: the same hold
                assert mine.fencing_token == first
            assert not theirs.acquire(blocking=False)
        assert theirs.acquire(timeout=5)
        assert theirs.fencing_token > first
        theirs.release()


def test_a_waiting_thread_is_granted_when_the_holder_releases(
        zookeeper: ZooKeeperServer, zk_client: dlock.Client, path: str) -> None:
    with dlock.Client(zookeeper.url) as other:
        holder = zk_client.lock(path)
        holder.acquire()
        held = holder.fencing_token
        granted: list[tuple[int, float]] = []

        def wait() -> None:
            waiter = other.lock(path)
            with waiter:
                granted.append((waiter.fencing_token, time.monotonic()))

        thread = threading.Thread(target=wait)
        thread.start()
        time.sleep(0.3)
        assert not granted, "granted while held"
        released = time.monotonic()
        holder.release()
        thread.join(10)
        assert granted and granted[0][0] > held
        assert granted[0][1] - released < 1.0  # woken by its watch


def test_a_fixed_lease_is_refused(zk_client: dlock.Client, path: str) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match="lease_ms.*zookeeper|zookeeper.*lease_ms"):
        zk_client.lock(path, lease=5).acquire()


def test_a_primitive_it_does_not_serve_names_the_backend(zk_client: dlock.Client) -> None:
    with pytest.raises(dlock.UnsupportedError, match="zookeeper"):
        zk_client.semaphore("slots").acquire(blocking=False)
