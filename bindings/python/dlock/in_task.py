"""Acquire and release for an asyncio task, entirely off the event loop (native_calls.py):
the loop never waits on Redis, not for a first attempt, not for a stalled server, not for
a release, and a cancelled task never leaves a lock held behind it."""

from __future__ import annotations

import asyncio
from typing import Optional

from dlock.handles import SharedLock
from dlock.native_calls import acquiring, releasing


async def acquire_in_task(
    shared: SharedLock, owner: int, wait_ms: int, lease_ms: int
) -> Optional[int]:
    """The fencing token, or None when the wait ran out. Cancelling the task cancels the
    wait; a grant that won the race with the cancellation is released again."""
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[Optional[int]] = loop.create_future()
    with acquiring(loop.call_soon_threadsafe, outcome, shared, owner, wait_ms, lease_ms):
        return await outcome


async def release_in_task(shared: SharedLock, owner: int) -> None:
    """Releases one hold; raises as SharedLock.release() does. A release the task stops
    waiting for (it was cancelled) still happens."""
    loop = asyncio.get_running_loop()
    await releasing(loop.call_soon_threadsafe, loop.create_future(), shared, owner)
