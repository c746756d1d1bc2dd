"""Who a hold belongs to: the running asyncio task when there is one, else the running
greenlet (gevent's, eventlet's) when it is not its thread's main one, else the OS thread,
unless the Lock object was made with an owner of its own (``thread_local=False``).

Tasks and greenlets share their thread, so a thread's owner id would let every task on an
event loop, or every greenlet of a gevent worker, re-enter a lock another one holds; each
task or greenlet gets an id of its own instead.
"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from typing import Any, Optional

from dlock._dlock import thread_owner
from dlock.greenlets import current_greenlet

# Asyncio tasks and greenlets: the flows of control that share a thread.
_flow_owners: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
# Explicit owner ids keep bit 63 clear (dlock's thread ids set it) and are never reused.
_next_owner = itertools.count(1).__next__


def new_owner() -> int:
    """An owner id no thread, task or other call has: for holds that belong to an object."""
    return _next_owner()


def current_owner() -> int:
    flow: Any = _current_task()
    if flow is None:
        flow = current_greenlet()  # (a live greenlet is true, a dead one false: no `or`)
    if flow is None:
        return thread_owner()
    owner = _flow_owners.get(flow)
    if owner is None:
        owner = _flow_owners.setdefault(flow, new_owner())
    return owner


def _current_task() -> Optional[asyncio.Task[Any]]:
    if asyncio._get_running_loop() is None:
        return None
    return asyncio.current_task()
