"""Waits and releases for an asyncio task, entirely off the event loop (native_calls.py):
the loop never waits on Redis, not for a first attempt, not for a stalled server, not for
a release; no thread waits for the grant; and a cancelled task never leaves anything held
behind it."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from dlock.handles import SharedLock
from dlock.native_calls import NativeWait, lock_wait, releasing, waiting


async def wait_in_task(wait: NativeWait) -> Any:
    """The wait's value, or None when it ran out. Cancelling the task cancels the wait; a
    grant that won the race with the cancellation is given back."""
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[Any] = loop.create_future()
    with waiting(loop.call_soon_threadsafe, outcome, wait):
        return await outcome


async def acquire_in_task(
    shared: SharedLock, owner: int, wait_ms: int, lease_ms: int
) -> Optional[int]:
    """The fencing token, or None when the wait ran out."""
    token: Optional[int] = await wait_in_task(lock_wait(shared, owner, wait_ms, lease_ms))
    return token


async def release_in_task(shared: SharedLock, owner: int) -> None:
    """Releases one hold; raises as SharedLock.release() does. A release the task stops
    waiting for (it was cancelled) still happens."""
    loop = asyncio.get_running_loop()
    await releasing(loop.call_soon_threadsafe, loop.create_future(), shared, owner)
