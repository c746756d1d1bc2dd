"""How many threads the process runs: what the asyncio waits' tests compare, since a wait
on the event loop must cost no thread."""

from __future__ import annotations

import asyncio
import os
import threading


def threads() -> tuple[int, int]:
    """Python's threads and the process's (native ones included)."""
    return threading.active_count(), len(os.listdir("/proc/self/task"))


async def settled_threads() -> tuple[int, int]:
    """threads() once the waits started have settled: the fewest of a few looks, so that
    a short-lived thread of an earlier test (a client closing) is not counted."""
    looks = []
    for _ in range(5):
        await asyncio.sleep(0.2)
        looks.append(threads())
    return min(looks)
