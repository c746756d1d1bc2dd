"""Who a hold belongs to: the running asyncio task when there is one, else the OS thread.

Tasks share their thread, so a thread's owner id would let every task on an event loop
re-enter a lock another task holds; each task gets an id of its own instead.
"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from typing import Any

from dlock._dlock import thread_owner

_task_owners: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
# Explicit owner ids keep bit 63 clear (dlock's thread ids set it) and are never reused.
_next_task_owner = itertools.count(1).__next__


def current_owner() -> int:
    if asyncio._get_running_loop() is None:
        return thread_owner()
    task = asyncio.current_task()
    if task is None:
        return thread_owner()
    owner = _task_owners.get(task)
    if owner is None:
        owner = _task_owners.setdefault(task, _next_task_owner())
    return owner
