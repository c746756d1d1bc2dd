"""Fixtures: one redis-server for the session, a dlock client per test, raw redis-py access."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Iterator

import pytest
import redis

import dlock

# The project's one redis-server launcher; the test modules import it too.
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "support"))
from redis_server import ClusterSet, RedisServer  # noqa: E402


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[ClusterSet]:
    """One 6-node Redis Cluster for the whole session (it takes several seconds to form)."""
    with ClusterSet() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def three_servers() -> Iterator[list[RedisServer]]:
    """Three independent servers, for RedLocks."""
    servers = [RedisServer() for _ in range(3)]
    for server in servers:
        server.__enter__()
    yield servers
    for server in servers:
        server.__exit__(None, None, None)


@pytest.fixture
def three_clients(three_servers: list[RedisServer]) -> Iterator[list[dlock.Client]]:
    clients = [dlock.Client(server.url) for server in three_servers]
    yield clients
    for client in clients:
        client.close()


@pytest.fixture
def raw(redis_server: RedisServer) -> Iterator[redis.Redis]:
    """Plain redis-py, for Redisson-layout commands and for looking at the keys."""
    connection = redis.Redis(port=redis_server.port, decode_responses=True)
    yield connection
    connection.close()


@pytest.fixture
def client(redis_server: RedisServer) -> Iterator[dlock.Client]:
    with dlock.Client(redis_server.url) as opened:
        yield opened


@pytest.fixture
def other_client(redis_server: RedisServer) -> Iterator[dlock.Client]:
    """A second client: another process, as far as Redis can tell."""
    with dlock.Client(redis_server.url) as opened:
        yield opened


@pytest.fixture
def name() -> str:
    return f"test-lock-{uuid.uuid4().hex}"
