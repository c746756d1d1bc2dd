"""Who a hold belongs to: the running asyncio task when there is one, else the OS thread,
unless the Lock object was made with an owner of its own (``thread_local=False``).

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
_next_owner = itertools.count(1).__next__


def new_owner() -> int:
    """An owner id no thread, task or other call has: for holds that belong to an object."""
    return _next_owner()


def current_owner() -> int:
    if asyncio._get_running_loop() is None:
        return thread_owner()
    task = asyncio.current_task()
    if task is None:
        return thread_owner()
    owner = _task_owners.get(task)
    if owner is None:
        owner = _task_owners.setdefault(task, new_owner())
    return owner
