"""dlock's asyncio paths against its blocking ones, in one process on one client.

Uncontended: acquire+release pairs/s, ``with lock`` in a thread against ``async with lock``
in one task. Hand-off: contenders on one lock, each holding it HOLD_SECONDS then working
THINK_SECONDS outside it, as threads (``with lock``) and as tasks on one event loop
(``async with lock``); the latency from one contender's release to another's acquire
returning.
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
import uuid
from typing import NamedTuple

import dlock

HOLD_SECONDS = 0.001
THINK_SECONDS = 0.001
WARM_UP_PAIRS = 200


def _name() -> str:
    return f"bench-async-{uuid.uuid4().hex}"


def blocking_pairs_per_second(client: dlock.Client, seconds: float) -> float:
    lock = client.lock(_name())
    for _ in range(WARM_UP_PAIRS):
        with lock:
            pass
    pairs = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(100):
            with lock:
                pass
        pairs += 100
    return pairs / (time.perf_counter() - started)


def async_pairs_per_second(client: dlock.Client, seconds: float) -> float:
    lock = client.lock(_name())

    async def run() -> float:
        for _ in range(WARM_UP_PAIRS):
            async with lock:
                pass
        pairs = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            for _ in range(100):
                async with lock:
                    pass
            pairs += 100
        return pairs / (time.perf_counter() - started)

    return asyncio.run(run())


class Grant(NamedTuple):
    contender: int
    granted: float  # when the acquire returned
    releasing: float  # when the release was called


class HandOffs(NamedTuple):
    count: int
    p50_ms: float
    p99_ms: float


def _hand_offs(grants: list[Grant]) -> HandOffs:
    """Passes of the lock from one contender to another; re-grants to the releasing one
    are not hand-offs."""
    ordered = sorted(grants, key=lambda grant: grant.granted)
    latencies = [
        after.granted - before.releasing
        for before, after in zip(ordered, ordered[1:])
        if after.contender != before.contender
    ]
    if len(latencies) < 2:
        return HandOffs(len(latencies), float("nan"), float("nan"))
    quantiles = statistics.quantiles(latencies, n=100)
    return HandOffs(len(latencies), quantiles[49] * 1000, quantiles[98] * 1000)


def thread_hand_offs(client: dlock.Client, contenders: int, seconds: float) -> HandOffs:
    lock = client.lock(_name())
    grants: list[Grant] = []
    start = threading.Barrier(contenders)

    def contend(index: int) -> None:
        start.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with lock:
                granted = time.monotonic()
                time.sleep(HOLD_SECONDS)
                releasing = time.monotonic()
            grants.append(Grant(index, granted, releasing))
            time.sleep(THINK_SECONDS)

    threads = [threading.Thread(target=contend, args=(index,)) for index in range(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return _hand_offs(grants)


def task_hand_offs(client: dlock.Client, contenders: int, seconds: float) -> HandOffs:
    lock = client.lock(_name())
    grants: list[Grant] = []

    async def contend(index: int, deadline: float) -> None:
        while time.monotonic() < deadline:
            async with lock:
                granted = time.monotonic()
                await asyncio.sleep(HOLD_SECONDS)
                releasing = time.monotonic()
            grants.append(Grant(index, granted, releasing))
            await asyncio.sleep(THINK_SECONDS)

    async def run() -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(contend(index, deadline) for index in range(contenders)))

    asyncio.run(run())
    return _hand_offs(grants)


def report(url: str, seconds: float, contenders: int) -> None:
    print("\ndlock asyncio against blocking, one process, one client")
    with dlock.Client(url) as client:
        blocking = blocking_pairs_per_second(client, seconds)
        in_task = async_pairs_per_second(client, seconds)
        print("  Uncontended acquire+release, one caller (pairs/s, higher is better)")
        print(f"    with lock (thread)          {blocking:10.0f} pairs/s")
        print(f"    async with lock (one task)  {in_task:10.0f} pairs/s"
              f"   async / blocking = {in_task / blocking:5.2f}x")

        threads = thread_hand_offs(client, contenders, seconds)
        tasks = task_hand_offs(client, contenders, seconds)
        print(f"  Hand-off, {contenders} contenders on one lock, each holding it "
              f"{HOLD_SECONDS * 1000:g} ms then working {THINK_SECONDS * 1000:g} ms outside it")
        print(f"    {'':28} {'hand-offs':>9} {'p50 ms':>8} {'p99 ms':>8}")
        for label, figure in (("threads (with lock)", threads), ("tasks (async with lock)", tasks)):
            print(f"    {label:28} {figure.count:9d} {figure.p50_ms:8.2f} {figure.p99_ms:8.2f}")
        print(f"    tasks / threads: p50 {tasks.p50_ms / threads.p50_ms:5.2f}x, "
              f"p99 {tasks.p99_ms / threads.p99_ms:5.2f}x")
