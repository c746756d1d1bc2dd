"""A client made before fork() works in the children, each as a client of its own."""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

import redis

import dlock
from checker import Section, assert_exclusive

_CYCLES = 15


def _contend(client: dlock.Client, name: str, results: Any) -> None:
    lock = client.lock(name)
    for _ in range(_CYCLES):
        with lock:
            start = time.monotonic()
            time.sleep(0.002)
            results.put(Section(lock.fencing_token, str(os.getpid()), start, time.monotonic()))


def _try_parents_lock(client: dlock.Client, name: str, results: Any) -> None:
    lock = client.lock(name)
    results.put(lock.acquire(blocking=False))


def test_forked_children_do_not_inherit_the_parents_holds(
    client: dlock.Client, name: str
) -> None:
    """A child sharing the parent's identity would re-enter the parent's hold."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    with client.lock(name):
        child = context.Process(target=_try_parents_lock, args=(client, name, results))
        child.start()
        child.join(30)
        assert child.exitcode == 0
        assert results.get(timeout=5) is False


def test_forked_children_contend_safely(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    with client.lock(name):  # the parent has used the client before forking
        pass
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    children = [
        context.Process(target=_contend, args=(client, name, results)) for _ in range(3)
    ]
    parent_lock = client.lock(f"{name}-parent")
    for child in children:
        child.start()
    with parent_lock:  # the parent keeps working while its children run
        assert parent_lock.held
    for child in children:
        child.join(60)
        assert child.exitcode == 0
    sections = [results.get(timeout=5) for _ in range(3 * _CYCLES)]
    assert_exclusive(sections, expected=3 * _CYCLES)
    assert len({section.owner for section in sections}) == 3
    assert not raw.exists(name)
