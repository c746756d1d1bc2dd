"""dlock.celery.once: one run at a time, or one successful run per period, across threads,
clients (workers) and Celery's eager mode."""

from __future__ import annotations

import threading
import time
from typing import Callable

import pytest

import dlock
from dlock.celery import once

# Long periods, aligned to the epoch: a test never straddles a period's end by chance.
PERIOD = 1_000_000.0


def _in_thread(call: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    results: list[object] = []
    thread = threading.Thread(target=lambda: results.append(call()))
    thread.start()
    return thread, results


def test_one_run_at_a_time_skips_a_concurrent_run(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    started, finish = threading.Event(), threading.Event()
    runs: list[str] = []

    def job(worker: str) -> str:
        runs.append(worker)
        started.set()
        assert finish.wait(10)
        return worker

    # Two workers: the same task decorated over each one's client.
    first_worker = once(client, name=name)(job)
    second_worker = once(other_client, name=name)(job)
    thread, results = _in_thread(lambda: first_worker("first"))
    assert started.wait(10)
    assert second_worker("second") is None  # skipped, at once
    finish.set()
    thread.join()
    assert results == ["first"]
    assert runs == ["first"]
    # The lock was released: the next run goes ahead.
    assert second_worker("second") == "second"
    assert not client.lock(name).locked()


def test_once_per_period_runs_once_and_keeps_the_lock_until_the_period_ends(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    runs: list[int] = []
    workers = [
        once(each, name=name, period=PERIOD)(lambda: runs.append(1))
        for each in (client, other_client)
    ]
    barrier = threading.Barrier(4)

    def call_twice(worker: Callable[[], object]) -> None:
        barrier.wait()
        worker()
        worker()

    threads = [threading.Thread(target=call_twice, args=(worker,)) for worker in workers * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(runs) == 1
    ttl = client.lock(name).ttl
    period_left = PERIOD - time.time() % PERIOD
    assert ttl is not None and period_left - 60 < ttl <= period_left + 1


def test_a_failed_run_lets_the_next_call_try_again(client: dlock.Client, name: str) -> None:
    attempts: list[int] = []

    @once(client, name=name, period=PERIOD)
    def flaky() -> str:
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("first attempt fails")
        return "done"

    with pytest.raises(RuntimeError, match="first attempt fails"):
        flaky()
    assert flaky() == "done"
    assert flaky() is None
    assert len(attempts) == 2


def test_the_default_name_is_the_functions(client: dlock.Client) -> None:
    def report() -> bool:
        return client.lock(f"celery:{__name__}.{report.__qualname__}").locked()

    assert once(client)(report)() is True


def test_bad_arguments_are_refused(client: dlock.Client) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match="period"):
        once(client, period=0)
    with pytest.raises(TypeError, match="client must be a dlock.Client"):
        once("redis://127.0.0.1")  # type: ignore[arg-type]


def test_under_celery_eager_tasks(client: dlock.Client, name: str) -> None:
    celery = pytest.importorskip(
        "celery", reason="celery is not installed (pip install '.[celery]')"
    )
    app = celery.Celery("dlock-test", broker="memory://")
    app.conf.task_always_eager = True
    started, finish = threading.Event(), threading.Event()

    @app.task
    @once(client, name=name)
    def exclusive() -> str:
        started.set()
        assert finish.wait(10)
        return "ran"

    thread, results = _in_thread(lambda: exclusive.delay().result)
    assert started.wait(10)
    assert exclusive.delay().result is None
    finish.set()
    thread.join()
    assert results == ["ran"]
