"""dlock's RedLock against pottery's Redlock, over 3 and over 5 local redis-servers.

Prints, for each server count and in one run: uncontended acquire+release pairs/s and
contended hand-off latency p50/p99 across processes, each with its ratio to dlock.

    python bench/python/bench_redlock.py [--seconds 3] [--processes 4]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from adapters import REDLOCK_ADAPTERS
from bench_locks import contended, uncontended_pairs_per_second

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "support"))
from redis_server import RedisServer  # noqa: E402

THINK_SECONDS = 0.001  # time each process works outside the lock between its grants


def compare(urls: str, count: int, seconds: float, processes: int) -> None:
    print(f"\n{count} servers: uncontended acquire+release, one process (pairs/s, higher is better)")
    rates = {library: uncontended_pairs_per_second(library, urls, seconds, REDLOCK_ADAPTERS)
             for library in REDLOCK_ADAPTERS}
    reference = rates["dlock RedLock"]
    for library, rate in rates.items():
        print(f"  {library:20} {rate:10.0f} pairs/s   dlock / this = {reference / rate:5.2f}x")

    print(f"{count} servers: contended, {processes} processes on one RedLock "
          f"(hand-off: release by one process -> acquire returning in another)")
    print(f"  {'library':20} {'hand-offs':>9} {'p50 ms':>8} {'p99 ms':>8}   p50 this/dlock   p99 this/dlock")
    figures = {library: contended(library, urls, seconds, THINK_SECONDS, processes, REDLOCK_ADAPTERS)
               for library in REDLOCK_ADAPTERS}
    mine = figures["dlock RedLock"]
    for library, figure in figures.items():
        print(f"  {library:20} {figure.hand_offs:9d} {figure.p50_ms:8.2f} {figure.p99_ms:8.2f}   "
              f"{figure.p50_ms / mine.p50_ms:13.2f}x   {figure.p99_ms / mine.p99_ms:13.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per library and figure")
    parser.add_argument("--processes", type=int, default=4)
    args = parser.parse_args()
    servers = [RedisServer().start() for _ in range(5)]
    try:
        for count in (3, 5):
            urls = " ".join(server.url for server in servers[:count])
            compare(urls, count, args.seconds, args.processes)
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
