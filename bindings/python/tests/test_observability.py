"""SPEC 11 in Python: the core's log records reach logging.getLogger("dlock"), and
Client.stats() counts what the client did."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from typing import Iterator

import pytest
import redis

import dlock
from polling import eventually
from redis_server import RedisServer

PASSWORD = "s3cret-Pa55word"


@pytest.fixture
def own_server() -> Iterator[RedisServer]:
    """A server of the test's own, since the test restarts it."""
    with RedisServer() as server:
        yield server


@pytest.fixture
def password_server() -> Iterator[RedisServer]:
    with RedisServer("--requirepass", PASSWORD) as server:
        yield server


def test_stats_count_grants_reentries_waits_and_handoffs(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    lock = client.lock(name)
    for _ in range(3):
        with lock:
            with lock:
                pass
    stats = client.stats()
    assert stats["grants"] == 3
    assert stats["reentries"] == 3
    assert stats["waits"] == 0

    holder = other_client.lock(name)
    holder.acquire()
    waited = threading.Event()

    def wait_for_the_lock() -> None:
        with lock:
            waited.set()

    waiter = threading.Thread(target=wait_for_the_lock)
    started = time.monotonic()
    waiter.start()
    time.sleep(0.3)
    holder.release()
    waiter.join(5)
    measured_us = (time.monotonic() - started) * 1e6
    assert waited.is_set()
    stats = client.stats()
    assert stats["grants"] == 4
    assert stats["waits"] == 1
    assert stats["handoffs"] == 1
    assert 250_000 <= stats["wait_p50_us"] <= stats["wait_p99_us"] <= stats["wait_max_us"] <= measured_us
    assert set(stats) == {
        "grants", "reentries", "waits", "handoffs", "renewals", "renewal_round_trips",
        "locks_lost", "reconnects", "transient_retries", "wait_p50_us", "wait_p99_us",
        "wait_max_us", "failovers", "expiries",
    }


def test_stats_count_renewals(redis_server: RedisServer, name: str) -> None:
    with dlock.Client(redis_server.url, watchdog_timeout=0.9) as client:
        with client.lock(name):
            assert eventually(lambda: client.stats()["renewals"] >= 2, timeout=2)
            assert client.stats()["renewal_round_trips"] >= 2


def test_stats_of_a_closed_client_raise(redis_server: RedisServer) -> None:
    client = dlock.Client(redis_server.url)
    client.close()
    with pytest.raises(dlock.ClientClosedError):
        client.stats()


def test_a_restart_under_a_held_lock_logs_a_warning(
    own_server: RedisServer, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="dlock")
    with dlock.Client(own_server.url, watchdog_timeout=1.0) as client:
        lock = client.lock(name)
        lock.acquire()
        own_server.restart()  # no persistence: the lock is gone
        assert eventually(lambda: client.stats()["locks_lost"] == 1)
        assert eventually(
            lambda: any(
                r.name == "dlock" and r.levelno == logging.WARNING and f"'{name}'" in r.getMessage()
                and "lost after" in r.getMessage()
                for r in caplog.records
            )
        ), caplog.text
        with pytest.raises(dlock.LockLostError):
            lock.release()
        assert client.stats()["reconnects"] >= 1


def test_no_record_holds_the_password(
    password_server: RedisServer, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="dlock")
    url = f"redis://:{PASSWORD}@127.0.0.1:{password_server.port}"
    admin = redis.Redis(port=password_server.port, password=PASSWORD)
    with dlock.Client(url, watchdog_timeout=0.9) as client, dlock.Client(url) as rival:
        lock = client.lock(name)
        lock.acquire()
        contended = rival.lock(name)
        outcome: list[bool] = []

        def take_and_release() -> None:
            outcome.append(contended.acquire(timeout=10))
            contended.release()

        waiter = threading.Thread(target=take_and_release)
        waiter.start()
        time.sleep(0.2)
        admin.client_kill_filter(_type="normal", skipme=True)
        admin.client_kill_filter(_type="pubsub")
        password_server.restart()
        waiter.join(15)
        assert outcome == [True]
        assert eventually(lambda: client.stats()["locks_lost"] == 1)
    with pytest.raises(dlock.AuthenticationError):
        dlock.Client(f"redis://:wrong-{PASSWORD}@127.0.0.1:{password_server.port}")
    admin.close()
    assert eventually(lambda: any("lost after" in r.getMessage() for r in caplog.records))
    time.sleep(0.2)  # the records of the last moments reach logging too
    records = [r for r in caplog.records if r.name == "dlock"]
    assert len(records) >= 4, caplog.text
    for record in records:
        assert PASSWORD not in record.getMessage()


def test_records_come_from_a_thread_that_never_blocks_dlock(
    own_server: RedisServer, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A handler that is slow to run does not hold up the watchdog: the lock is still
    renewed while records queue."""
    caplog.set_level(logging.DEBUG, logger="dlock")
    gate = threading.Event()

    class Slow(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            gate.wait(5)

    slow = Slow()
    logging.getLogger("dlock").addHandler(slow)
    try:
        with dlock.Client(own_server.url, watchdog_timeout=0.9) as client:
            lock = client.lock(name)
            lock.acquire()
            admin = redis.Redis(port=own_server.port)
            admin.client_kill_filter(_type="normal")  # records: connection lost, regained
            assert eventually(lambda: client.stats()["renewals"] >= 3, timeout=3)
            gate.set()
            lock.release()
            admin.close()
    finally:
        gate.set()
        logging.getLogger("dlock").removeHandler(slow)


def test_an_application_without_logging_config_sees_no_dlock_records_on_stderr() -> None:
    # A library's records go only where the application sends them (a NullHandler), not
    # to logging's last-resort handler on standard error.
    script = "import logging, dlock; logging.getLogger('dlock').warning('renewal failed')"
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert completed.stderr == ""
