"""gevent and eventlet, seen without importing them: which greenlet calls, and how to start
a real OS thread once either has patched ``threading``.

Both run greenlets (the ``greenlet`` package) on one OS thread, switching at their waits.
Nothing here imports gevent, eventlet or greenlet: a program that runs greenlets has loaded
them by then, and one that does not never pays for them. (Their modules are reached through
sys.modules, untyped: neither has type stubs.)
"""

from __future__ import annotations

import _thread
import sys
import threading
from typing import Any, Callable, Optional


def current_greenlet() -> Optional[Any]:
    """The running greenlet, unless it is its thread's main greenlet (that one is the thread
    itself, and keeps the thread's owner): None when no greenlet library is loaded."""
    greenlet = sys.modules.get("greenlet")
    if greenlet is None:
        return None
    current = greenlet.getcurrent()
    return None if current.parent is None else current


def _original(name: str) -> Callable[..., Any]:
    """``_thread``'s own function ``name``, even once gevent or eventlet replaced it with one
    that makes greenlets."""
    original: Callable[..., Any]
    if "gevent.monkey" in sys.modules:
        original = sys.modules["gevent.monkey"].get_original("_thread", name)
    elif "eventlet.patcher" in sys.modules:
        original = getattr(sys.modules["eventlet.patcher"].original("_thread"), name)
    else:
        original = getattr(_thread, name)
    return original


def start_os_thread(name: str, target: Callable[..., object], *args: object) -> None:
    """Runs ``target(*args)`` on a new OS thread called ``name`` (a daemon one, as every
    ``_thread`` thread is), also under gevent's or eventlet's patching, where a
    ``threading.Thread`` is a greenlet: a greenlet that blocks in a native call stops every
    greenlet of its thread."""

    def run() -> None:
        threading.current_thread().name = name  # what logging records as the threadName
        target(*args)

    _original("start_new_thread")(run, ())


def os_lock() -> Any:
    """A mutex of the OS, not a greenlet one: for state that the client's own threads share
    with greenlets, guarded only across steps that never switch greenlets."""
    return _original("allocate_lock")()
