"""dlock against redis-py's Lock, python-redis-lock and pottery's Redlock, on one Redis.

Prints, for each library and in one run: uncontended acquire+release pairs/s, contended
hand-off latency p50/p99 across processes, and fairness (fewest/most grants per process),
each with its ratio to dlock. Then dlock's asyncio paths against its blocking ones
(async_paths.py): pairs/s of ``async with`` against ``with``, hand-offs between tasks
against hand-offs between threads.

    python bench/python/bench_locks.py [--seconds 3] [--processes 8] [--url redis://...]
                                       [--async-only]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any, NamedTuple

import async_paths
from adapters import ADAPTERS

# The project's one launcher, so that the benchmark starts redis-server the way the tests do.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from redis_server import RedisServer  # noqa: E402

HOLD_SECONDS = 0.001  # time spent holding the lock in the contended runs
# Time each process spends outside the lock between its grants. With none, a releasing
# process asks again before any waiter can be woken, and mostly takes the lock back.
THINK_SECONDS = (0.0, 0.001)


def uncontended_pairs_per_second(library: str, url: str, seconds: float,
                                 adapters: dict[str, Any] = ADAPTERS) -> float:
    contender = adapters[library](url, f"bench-{uuid.uuid4().hex}")
    for _ in range(200):  # warm up connections and script caches
        contender.acquire()
        contender.release()
    pairs = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            contender.acquire()
            contender.release()
        pairs += 100
    return pairs / (time.perf_counter() - started)


class Grant(NamedTuple):
    process: int
    granted: float   # monotonic time the acquire returned
    releasing: float  # monotonic time the release was called


def _contend(library: str, url: str, name: str, seconds: float, think: float, index: int,
             start: Any, results: Any, adapters: dict[str, Any]) -> None:
    contender = adapters[library](url, name)
    grants = []
    start.wait()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        contender.acquire()
        granted = time.monotonic()
        time.sleep(HOLD_SECONDS)
        releasing = time.monotonic()
        contender.release()
        grants.append(Grant(index, granted, releasing))
        if think:
            time.sleep(think)
    results.put(grants)


class Contention(NamedTuple):
    hand_offs: int
    p50_ms: float
    p99_ms: float
    fewest: int
    most: int


def contended(library: str, url: str, seconds: float, think: float, processes: int,
              adapters: dict[str, Any] = ADAPTERS) -> Contention:
    context = multiprocessing.get_context("fork")
    start = context.Barrier(processes)
    results = context.Queue()
    name = f"bench-{uuid.uuid4().hex}"
    workers = [
        context.Process(
            target=_contend,
            args=(library, url, name, seconds, think, index, start, results, adapters),
        )
        for index in range(processes)
    ]
    for worker in workers:
        worker.start()
    grants = sorted(
        (grant for _ in workers for grant in results.get()), key=lambda grant: grant.granted
    )
    for worker in workers:
        worker.join()
    # A hand-off: the lock passes from one process to another (the release call to the
    # next process's acquire returning). Re-grants to the releasing process are not one.
    latencies = sorted(
        after.granted - before.releasing
        for before, after in zip(grants, grants[1:])
        if after.process != before.process
    )
    per_process = [sum(1 for grant in grants if grant.process == index) for index in range(processes)]
    if not latencies:
        return Contention(0, float("nan"), float("nan"), min(per_process), max(per_process))
    quantiles = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return Contention(len(latencies), quantiles[49] * 1000, quantiles[98] * 1000,
                      min(per_process), max(per_process))


def compare_libraries(url: str, seconds: float, processes: int) -> None:
    print("\nUncontended acquire+release, one process (pairs/s, higher is better)")
    rates = {library: uncontended_pairs_per_second(library, url, seconds)
             for library in ADAPTERS}
    reference = rates["dlock"]
    for library, rate in rates.items():
        print(f"  {library:30} {rate:10.0f} pairs/s   dlock / this = {reference / rate:5.2f}x")

    for think in THINK_SECONDS:
        print(f"\nContended, {processes} processes on one lock, each holding it "
              f"{HOLD_SECONDS * 1000:g} ms then working {think * 1000:g} ms outside it")
        print("  (hand-off: release by one process -> acquire returning in another)")
        print(f"  {'library':30} {'hand-offs':>9} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'grants min/max':>15}   p50 this/dlock   p99 this/dlock")
        figures = {library: contended(library, url, seconds, think, processes)
                   for library in ADAPTERS}
        mine = figures["dlock"]
        for library, figure in figures.items():
            print(f"  {library:30} {figure.hand_offs:9d} {figure.p50_ms:8.2f} "
                  f"{figure.p99_ms:8.2f} {figure.fewest:7d}/{figure.most:<7d}   "
                  f"{figure.p50_ms / mine.p50_ms:13.2f}x   {figure.p99_ms / mine.p99_ms:13.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per library and figure")
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--url", help="an existing Redis (default: start a throwaway one)")
    parser.add_argument("--async-only", action="store_true",
                        help="only dlock's asyncio paths against its blocking ones")
    args = parser.parse_args()

    server = None if args.url else RedisServer().start()
    url = args.url if server is None else server.url
    try:
        print(f"Redis: {url}; {args.seconds} s per figure")
        if not args.async_only:
            compare_libraries(url, args.seconds, args.processes)
        async_paths.report(url, args.seconds, args.processes)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
