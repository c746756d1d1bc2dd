"""dlock.Client("postgresql://...") against a real PostgreSQL server the test starts
(tests/support/postgres_server.py): the same Lock objects, each a row of the lock table, read
here through psql rather than through dlock."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Iterator

import pytest

import dlock
from collected_leaders import Collected
from postgres_server import PostgresServer, bindir

pytestmark = pytest.mark.skipif(bindir() is None, reason="no PostgreSQL server (Debian's postgresql-15)")


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with PostgresServer() as server:
        try:
            dlock.Client(server.url).close()
        except dlock.UnsupportedError as refused:  # a wheel from scripts/release.sh (docs/sql.md)
            pytest.skip(f"this build has no postgresql backend: {refused}")
        yield server


@pytest.fixture
def pg_client(postgres: PostgresServer) -> Iterator[dlock.Client]:
    with dlock.Client(postgres.url) as opened:
        yield opened


@pytest.fixture
def name() -> str:
    return f"job-{uuid.uuid4().hex}"


def live_token(postgres: PostgresServer, name: str) -> int | None:
    """The token of name's row while its lease runs; None when the name is free."""
    answer = postgres.query(f"SELECT token FROM dlock_locks WHERE name = convert_to('{name}', 'UTF8')"
                            " AND lease_until > clock_timestamp()")
    return int(answer) if answer else None


def test_the_client_names_its_backend(pg_client: dlock.Client) -> None:
    assert pg_client.backend == "postgresql"


def test_a_lock_is_a_fenced_row_reentrant_and_excluding_another_client(
        postgres: PostgresServer, pg_client: dlock.Client, name: str) -> None:
    with dlock.Client(postgres.url) as other:
        mine = pg_client.lock(name)
        theirs = other.lock(name)
        with mine:
            first = mine.fencing_token
            assert live_token(postgres, name) == first
            with mine:  # re-entry: the same hold
                assert mine.fencing_token == first
            assert not theirs.acquire(blocking=False)
        assert live_token(postgres, name) is None
        assert theirs.acquire(timeout=5)
        assert theirs.fencing_token > first
        assert live_token(postgres, name) == theirs.fencing_token
        theirs.release()


def test_a_waiter_in_another_client_is_granted_when_the_holder_releases(
        postgres: PostgresServer, pg_client: dlock.Client, name: str) -> None:
    with dlock.Client(postgres.url) as other:
        holder = pg_client.lock(name)
        holder.acquire()
        held = holder.fencing_token
        granted: list[tuple[int, float]] = []

        def wait() -> None:
            waiter = other.lock(name)
            with waiter:
                granted.append((waiter.fencing_token, time.monotonic()))

        thread = threading.Thread(target=wait)
        thread.start()
        time.sleep(0.5)
        assert not granted, "granted while held"
        released = time.monotonic()
        holder.release()
        thread.join(10)
        assert granted and granted[0][0] > held
        assert granted[0][1] - released < 1.0  # woken by NOTIFY, not by the 30 s lease's end


def test_a_primitive_it_does_not_serve_names_the_backend(pg_client: dlock.Client, name: str) -> None:
    with pytest.raises(dlock.UnsupportedError, match="postgresql"):
        pg_client.fair_lock(name).acquire(blocking=False)


def test_a_permit_semaphore_leases_rows_and_a_fixed_lease_ends_by_the_servers_clock(
        postgres: PostgresServer, pg_client: dlock.Client, name: str) -> None:
    with dlock.Client(postgres.url) as other:
        mine = pg_client.permit_expirable_semaphore(name)
        theirs = other.permit_expirable_semaphore(name)
        with pytest.raises(dlock.InvalidArgumentError, match="permits"):
            mine.try_set_permits(0)
        assert mine.try_set_permits(2)
        assert not theirs.try_set_permits(5)
        first = mine.acquire(timeout=0)
        short = mine.acquire(timeout=0, lease=0.5)
        assert first is not None and short is not None
        assert postgres.query("SELECT count(*) FROM dlock_semaphore_lease"
                              f" WHERE name = convert_to('{name}', 'UTF8') AND lease_until > clock_timestamp()") == "2"
        assert theirs.acquire(timeout=0) is None
        # The fixed lease ends on its own, which frees its permit for the other client.
        taken = theirs.acquire(timeout=10)
        assert taken is not None
        with pytest.raises(dlock.LockLostError):
            short.release()
        first.release()
        taken.release()
        assert mine.available_permits() == 2


def test_an_election_records_its_leader_and_observers_see_each_change(
    postgres: PostgresServer, pg_client: dlock.Client, name: str
) -> None:
    """The leadership is the lock table's row "dlock_election:<name>", its token the term; the
    record in dlock_locks_leaders carries the value, which proclaim replaces, and a follower's
    observer, woken by NOTIFY, sees each leader and value in order."""
    with dlock.Client(postgres.url) as other_client:
        with pg_client.election(name) as first, other_client.election(name) as second:
            term = first.campaign("host-a:1")
            assert live_token(postgres, f"dlock_election:{name}") == term
            assert second.campaign("host-b:2", timeout=0) is None
            changes = Collected(second.observe())
            changes.wait_for(1)
            first.proclaim("serving on :8080")
            changes.wait_for(2)
            first.resign()
            next_term = second.campaign("host-b:2", timeout=10)
            assert next_term is not None and next_term > term
            seen = [(leader.value, leader.term) for leader in changes.wait_for(3)]
            assert seen == [("host-a:1", term), ("serving on :8080", term), ("host-b:2", next_term)]
            second.resign()
            assert first.leader() is None


def test_a_session_mode_lock_is_its_connections_advisory_lock_and_fenced(
    postgres: PostgresServer, name: str
) -> None:
    """mode=session: a hold is pg_advisory_lock on a connection of its own, with a token from the
    lock's sequence; no lock table row is written, another client is refused until the release,
    and the next holder's token is larger."""
    url = postgres.url + "?mode=session"
    with dlock.Client(url) as mine_client, dlock.Client(url) as theirs_client:
        mine = mine_client.lock(name)
        theirs = theirs_client.lock(name)
        assert mine.acquire(timeout=5)
        first = mine.fencing_token
        assert first > 0
        assert live_token(postgres, name) is None, "session mode writes no lease row"
        held = postgres.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")
        assert int(held) >= 1
        assert not theirs.acquire(blocking=False)
        mine.release()
        assert theirs.acquire(timeout=5)
        assert theirs.fencing_token > first
        theirs.release()
