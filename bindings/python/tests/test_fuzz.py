"""Every public call with hostile arguments (fuzz_child.py), in a child process: it must not
crash, must raise only the documented exception types, and must leave alone what another
client holds.

The seed is fixed, so a failure replays: DLOCK_FUZZ_SEED and DLOCK_FUZZ_CALLS override it
and the number of calls (e.g. to run longer by hand).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Iterator

import pytest
import redis

import dlock
from redis_server import RedisServer

SEED = int(os.environ.get("DLOCK_FUZZ_SEED", "21"))
CALLS = int(os.environ.get("DLOCK_FUZZ_CALLS", "10000"))
_CHILD = Path(__file__).with_name("fuzz_child.py")


@pytest.fixture
def two_more_servers() -> Iterator[list[RedisServer]]:
    """With the session's server, the three a RedLock needs."""
    with RedisServer() as second, RedisServer() as third:
        yield [second, third]


def _failure_report(result: subprocess.CompletedProcess[str]) -> str:
    """The last call the child started, with the arguments it drew, and what followed."""
    lines = result.stdout.splitlines()
    starts = [index for index, line in enumerate(lines) if line.startswith("call ")]
    last_call = "\n".join(lines[starts[-1]:] if starts else lines[-20:])
    return (
        f"seed {SEED}, {CALLS} calls: the child ended with {result.returncode} in\n"
        f"{last_call}\n{result.stderr[-3000:]}"
    )


def test_hostile_arguments_never_crash_nor_release_what_another_holds(
    redis_server: RedisServer,
    two_more_servers: list[RedisServer],
    other_client: dlock.Client,
    raw: redis.Redis,
) -> None:
    prefix = f"fuzz-{uuid.uuid4().hex}"
    victims = {key: f"{prefix}-victim-{key}" for key in ("lock", "fair", "rw", "semaphore",
                                                         "permits", "latch")}
    locks = [
        other_client.lock(victims["lock"]),
        other_client.fair_lock(victims["fair"]),
        other_client.read_write_lock(victims["rw"]).write_lock(),
    ]
    for lock in locks:
        assert lock.acquire(blocking=False)
    held = {lock.name: raw.hgetall(lock.name) for lock in locks}
    semaphore = other_client.semaphore(victims["semaphore"])
    assert semaphore.try_set_permits(1) and semaphore.acquire(blocking=False)
    permits = other_client.permit_expirable_semaphore(victims["permits"])
    assert permits.try_set_permits(1)
    permit = permits.acquire(timeout=0)
    assert permit is not None
    latch = other_client.count_down_latch(victims["latch"])
    assert latch.try_set_count(3)

    urls = [redis_server.url] + [server.url for server in two_more_servers]
    result = subprocess.run(
        [sys.executable, str(_CHILD), str(SEED), str(CALLS), prefix,
         json.dumps({**victims, "permit_id": permit.id}), *urls],
        capture_output=True, text=True, errors="replace", timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )

    assert result.returncode == 0 and result.stdout.endswith("done\n"), _failure_report(result)
    for lock in locks:
        assert lock.held, f"{lock.name} is no longer held by its owner"
    for name, fields in held.items():
        assert raw.hgetall(name) == fields, f"{name}'s holders changed"
    assert latch.count == 3
    assert permits.try_release(permit.id), "the permit was released by the fuzzing client"
    for lock in locks:
        lock.release()
