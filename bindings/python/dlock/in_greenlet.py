"""Waits and releases for a greenlet under gevent or eventlet: the wait yields to the hub,
so the thread's other greenlets keep running, and never blocks the OS thread on Redis.

The native asynchronous call (native_calls.py) posts its outcome to the hub from the
client's async thread; the greenlet waits for it on the hub. A greenlet that stops waiting
(killed, or timed out by gevent's or eventlet's Timeout) cancels the wait, and a grant that
won the race is released again. gevent and eventlet are reached through importlib, untyped:
neither has type stubs, and neither is imported unless a hub of its runs in this thread.
"""

from __future__ import annotations

import importlib
import os
import posix
import sys
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, ContextManager, Iterator, Optional, Union

from dlock.handles import SharedLock
from dlock.native_calls import NativeWait, Post, lock_wait, releasing, waiting


class _HubFuture:
    """What a native call settles (asyncio.Future's methods), on the hub; a greenlet waits
    for it with wait(), on one of the hub's events (``wake`` sets it, ``sleep`` waits)."""

    def __init__(self, wake: Callable[[], object], sleep: Callable[[], object]) -> None:
        self._wake = wake
        self._sleep = sleep
        self._done = False
        self._result: Any = None
        self._exception: Optional[BaseException] = None

    def cancelled(self) -> bool:
        return False  # a greenlet that gives up abandons the call instead

    def done(self) -> bool:
        return self._done

    def result(self) -> Any:
        return self._result

    def exception(self) -> Optional[BaseException]:
        return self._exception

    def set_result(self, result: Any) -> None:
        self._result = result
        self._settled()

    def set_exception(self, exception: BaseException) -> None:
        self._exception = exception
        self._settled()

    def _settled(self) -> None:
        self._done = True
        self._wake()

    def wait(self) -> Any:
        """The outcome, the calling greenlet yielding to the hub until it comes."""
        self._sleep()
        if self._exception is not None:
            raise self._exception
        return self._result


class _GeventHub:
    def __init__(self, hub: Any) -> None:
        self._hub = hub

    def post(self) -> Post:
        return self._hub.loop.run_callback_threadsafe  # type: ignore[no-any-return]

    def future(self) -> _HubFuture:
        event = importlib.import_module("gevent.event").Event()
        return _HubFuture(event.set, event.wait)

    @contextmanager
    def kept_running(self) -> Iterator[None]:
        """Keeps the hub's loop running while a greenlet waits for an outcome from another
        thread: a callback posted with run_callback_threadsafe does not, and with nothing
        else to do the hub would end the wait with LoopExit ("would block forever")."""
        watcher = self._hub.loop.async_()
        watcher.start(_nothing)
        try:
            yield
        finally:
            watcher.close()


def _nothing() -> None:
    pass


class _EventletHub:
    def __init__(self, hub: Any) -> None:
        self._hub = hub

    def post(self) -> Post:
        return _PipePost(self._hub)

    def future(self) -> _HubFuture:
        event = importlib.import_module("eventlet.event").Event()
        return _HubFuture(lambda: event.send(None), event.wait)

    def kept_running(self) -> ContextManager[None]:
        return nullcontext()  # the hub runs while anything listens: the post's pipe does


class _PipePost:
    """Runs one callback posted from any thread on an eventlet hub, which has no
    call_soon_threadsafe: a byte on a pipe the hub listens to until the callback came (also
    when its greenthread stopped waiting meanwhile: the callback then undoes a grant).
    ``posix.write``, not ``os.write``: eventlet's patched os.write would wait on a hub of
    the client's async thread."""

    def __init__(self, hub: Any) -> None:
        self._hub = hub
        self._read, self._write = os.pipe()
        self._posted: list[tuple[Callable[..., object], tuple[Any, ...]]] = []
        self._listener = hub.add(hub.READ, self._read, self._run, _nothing_closed, None)

    def __call__(self, callback: Callable[..., object], *args: Any) -> None:
        self._posted.append((callback, args))
        posix.write(self._write, b"!")

    def _run(self, fileno: int) -> None:
        self._hub.remove(self._listener)
        os.close(self._read)
        os.close(self._write)
        for callback, args in self._posted:
            callback(*args)


def _nothing_closed(error: BaseException) -> None:
    """Only dlock has the pipe's descriptors: nobody closes them under the hub."""


Hub = Union[_GeventHub, _EventletHub]


def running_hub() -> Optional[Hub]:
    """The hub of gevent or eventlet that runs in this thread, None when there is none (no
    other greenlet is waiting to run here then, so a wait may block the thread)."""
    if "gevent" in sys.modules:
        gevent_hub = importlib.import_module("gevent._hub_local").get_hub_if_exists()
        if gevent_hub is not None:
            return _GeventHub(gevent_hub)
    if "eventlet.hubs" in sys.modules:
        eventlet_hub = getattr(sys.modules["eventlet.hubs"]._threadlocal, "hub", None)
        if eventlet_hub is not None:
            return _EventletHub(eventlet_hub)
    return None


def wait_in_greenlet(hub: Hub, wait: NativeWait) -> Any:
    """The wait's value, or None when it ran out."""
    with hub.kept_running(), waiting(hub.post(), hub.future(), wait) as future:
        return future.wait()


def acquire_in_greenlet(
    hub: Hub, shared: SharedLock, owner: int, wait_ms: int, lease_ms: int
) -> Optional[int]:
    """The fencing token, or None when the wait ran out."""
    token: Optional[int] = wait_in_greenlet(hub, lock_wait(shared, owner, wait_ms, lease_ms))
    return token


def release_in_greenlet(hub: Hub, shared: SharedLock, owner: int) -> None:
    """Releases one hold; raises as SharedLock.release() does."""
    with hub.kept_running():
        releasing(hub.post(), hub.future(), shared, owner).wait()
