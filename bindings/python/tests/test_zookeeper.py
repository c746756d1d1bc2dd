"""dlock.Client("zookeeper://...") against a real ZooKeeper server: the same Lock objects,
served in Curator's layout (tests/support/zookeeper_server.py starts the server)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from typing import Iterator

import pytest

import dlock
from collected_leaders import Collected
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
        _granted_after_release(theirs, first)


def _granted_after_release(theirs: dlock.Lock, first: int) -> None:
    """Once the holder released, the other client is granted a larger token."""
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


def test_a_non_reentrant_lock_refuses_its_holder_as_threading_lock_does(
        zookeeper: ZooKeeperServer, zk_client: dlock.Client, path: str) -> None:
    with dlock.Client(zookeeper.url) as other:
        mine = zk_client.lock(path, reentrant=False)
        theirs = other.lock(path, reentrant=False)
        with mine:
            first = mine.fencing_token
            assert not mine.acquire(blocking=False)
            started = time.monotonic()
            assert not mine.acquire(timeout=0.3)
            assert time.monotonic() - started >= 0.29
            assert mine.fencing_token == first
            assert not theirs.acquire(blocking=False)
        _granted_after_release(theirs, first)


def test_a_non_reentrant_lock_owned_by_its_object_is_released_by_another_thread(
        zk_client: dlock.Client, path: str) -> None:
    lock = zk_client.lock(path, reentrant=False, thread_local=False)
    assert lock.acquire()
    first = lock.fencing_token
    releaser = threading.Timer(0.3, lock.release)
    releaser.start()
    started = time.monotonic()
    assert lock.acquire(timeout=5), "the release from another thread did not let it in"
    assert time.monotonic() - started >= 0.25
    releaser.join()
    assert lock.fencing_token > first
    lock.release()


def test_a_non_reentrant_lock_is_refused_a_non_bool_reentrant(zk_client: dlock.Client, path: str) -> None:
    with pytest.raises(TypeError, match="reentrant"):
        zk_client.lock(path, reentrant=0)  # type: ignore[arg-type]


def test_a_permit_semaphore_is_curators_semaphore_v2(
        zookeeper: ZooKeeperServer, zk_client: dlock.Client, path: str) -> None:
    with dlock.Client(zookeeper.url) as other:
        mine = zk_client.permit_expirable_semaphore(path)
        theirs = other.permit_expirable_semaphore(path)
        with pytest.raises(dlock.InvalidArgumentError, match="try_set_permits"):
            mine.acquire(timeout=0)
        assert mine.try_set_permits(2)
        assert not theirs.try_set_permits(3)
        assert theirs.available_permits() == 2
        first = mine.acquire(timeout=0)
        second = theirs.acquire(timeout=0)
        assert first is not None and second is not None and first.id != second.id
        assert theirs.acquire(timeout=0) is None
        assert mine.available_permits() == 0
        with pytest.raises(dlock.LockNotOwnedError, match="zookeeper"):
            theirs.release(first.id)  # another client's permit
        with pytest.raises(dlock.InvalidArgumentError, match="lease_ms.*zookeeper|zookeeper.*lease_ms"):
            theirs.acquire(timeout=0, lease=5)
        first.release()
        with theirs.acquire(timeout=5) as third:
            assert third is not None
            assert mine.available_permits() == 0
        second.release()
        assert mine.available_permits() == 2


class _CuttableProxy:
    """Forwards a loopback port to the server; cut() closes every connection through it and
    turns new ones away until heal(): the client is cut off from the ensemble."""

    def __init__(self, upstream_port: int) -> None:
        self._upstream_port = upstream_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._cut = threading.Event()
        self._mutex = threading.Lock()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut.is_set():
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self._upstream_port))
            with self._mutex:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self._cut.set()
        with self._mutex:
            cut, self._sockets = self._sockets, []
        for end in cut:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def heal(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self.cut()
        self._listener.close()


def test_a_client_whose_session_expired_locks_again_on_a_new_session(
        zookeeper: ZooKeeperServer, path: str) -> None:
    proxy = _CuttableProxy(zookeeper.port)
    lost: list[tuple[str, int]] = []
    try:
        with dlock.Client(f"zookeeper://127.0.0.1:{proxy.port}?session_timeout_ms=1500") as client, \
                dlock.Client(zookeeper.url) as other:
            mine = client.lock(path, on_lost=lambda name, owner: lost.append((name, owner)))
            theirs = other.lock(path)
            assert mine.acquire(blocking=False)
            first = mine.fencing_token
            proxy.cut()
            # The server expires the session 1.5 s after it last heard from it, and its node with it.
            assert theirs.acquire(timeout=15), "the expired session's node is still there"
            assert theirs.fencing_token > first
            theirs.release()
            deadline = time.monotonic() + 5
            while not lost and time.monotonic() < deadline:
                time.sleep(0.02)
            assert len(lost) == 1
            proxy.heal()
            with pytest.raises(dlock.LockLostError):
                mine.release()
            assert mine.acquire(timeout=20), "the client did not lock again after its session expired"
            second = mine.fencing_token
            assert second > first
            assert not theirs.acquire(blocking=False), "held by two clients"
            mine.release()
            assert theirs.acquire(timeout=5)
            assert theirs.fencing_token > second
            theirs.release()
            assert len(lost) == 1
    finally:
        proxy.close()


def test_an_election_is_curators_leader_selector_and_is_observed(zookeeper: ZooKeeperServer, path: str) -> None:
    """The leader is the first lock node at the election's path (Curator's LeaderSelector),
    its data the value and its creation zxid the term; a follower's observer sees each
    leader and proclaimed value in order, and a resign hands over to the waiting candidate."""
    with dlock.Client(zookeeper.url) as first_client, dlock.Client(zookeeper.url) as second_client:
        with first_client.election(path) as first, second_client.election(path) as second:
            assert second.leader() is None
            term = first.campaign("host-a:1")
            assert second.campaign("host-b:2", timeout=0) is None
            changes = Collected(second.observe())
            changes.wait_for(1)
            first.proclaim("serving on :8080")
            changes.wait_for(2)
            granted: list[int] = []
            waiter = threading.Thread(target=lambda: granted.append(second.campaign("host-b:2", timeout=10)))
            waiter.start()
            time.sleep(0.2)
            assert not granted, "led while the first still led"
            first.resign()
            waiter.join(10)
            assert granted and granted[0] > term
            seen = [(leader.value, leader.term) for leader in changes.wait_for(3)]
            assert seen == [("host-a:1", term), ("serving on :8080", term), ("host-b:2", granted[0])]
            leader = first.leader()
            assert leader is not None and (leader.value, leader.term) == ("host-b:2", granted[0])
            second.resign()
