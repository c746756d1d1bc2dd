"""Two processes, each with its own client, on one lock: checked by fencing tokens."""

from __future__ import annotations

import dlock
from checker import assert_exclusive
from redis_server import RedisServer
from section_workers import run_section_workers

_CYCLES = 40


def test_two_processes_never_overlap(redis_server: RedisServer, name: str) -> None:
    sections = run_section_workers([redis_server.url] * 2, [name], _CYCLES)
    assert_exclusive(sections[name], expected=2 * _CYCLES)


def test_tokens_continue_across_clients(redis_server: RedisServer, name: str) -> None:
    tokens = []
    for _ in range(3):
        with dlock.Client(redis_server.url) as client, client.lock(name) as lock:
            tokens.append(lock.fencing_token)
    assert tokens == sorted(set(tokens))
