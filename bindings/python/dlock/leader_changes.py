"""An election's leader changes, fanned out from its one native observer to every
:meth:`dlock.Election.observe` iterator (plain and ``async for``).

The C library calls the observer on a thread of its own with each change, in order, none
twice and none missed. That call takes the GIL only to append the change to each
iterator's queue and wake its reader: a thread waiting in ``next()``, or a task awaiting
``__anext__()`` on its event loop (woken through ``call_soon_threadsafe``, so no thread
waits for a change). It never runs user code, which could wait on dlock there.

An iterator opened after the first sees first the leader of the moment (the last change
delivered), then every change after it, so every iterator sees the same sequence from its
start. Iterators are referred to weakly: one that is dropped stops receiving; an iterator
kept but not read keeps every change until it is read.
"""

from __future__ import annotations

import asyncio
import collections
import threading
import weakref
from typing import Any, AsyncIterator, Callable, Deque, Iterator, Optional, Union

from dlock.greenlets import os_lock
from dlock.leader import Leader

# Marks the end of an iterator's changes: its election was closed.
_END = object()
_Waiter = Union[threading.Event, "asyncio.Future[None]"]


class LeaderChanges:
    """The fan-out of one election: ``start`` starts the native observer with a callable
    taking (value, term, since_ms); it is started by the first iterator."""

    def __init__(self, start: Callable[[Callable[[str, int, int], None]], None]) -> None:
        self._start = start
        # An OS mutex: the observer's thread and the readers' share it.
        self._mutex = os_lock()
        self._iterators: weakref.WeakSet[LeaderIterator] = weakref.WeakSet()
        self._last: Optional[Leader] = None
        self._started = False
        self._ended = False

    def subscribe(self) -> LeaderIterator:
        iterator = LeaderIterator()
        with self._mutex:
            if self._ended:
                iterator.push(_END)
                return iterator
            if self._last is not None:
                iterator.push(self._last)
            self._iterators.add(iterator)
            first, self._started = not self._started, True
        if first:
            # A weak reference: the native handle holds the callable, and a cycle through
            # it could never be collected.
            self._start(_Deliver(weakref.ref(self)))
        return iterator

    def deliver(self, leader: Leader) -> None:
        """A change, on the observer's thread."""
        with self._mutex:
            self._last = leader
            iterators = list(self._iterators)
            for iterator in iterators:
                iterator.push(leader)

    def end(self) -> None:
        """The election is closed: every iterator ends once it has read what it received."""
        with self._mutex:
            self._ended = True
            iterators = list(self._iterators)
            self._iterators = weakref.WeakSet()
            for iterator in iterators:
                iterator.push(_END)


class _Deliver:
    __slots__ = ("_changes",)

    def __init__(self, changes: weakref.ref[LeaderChanges]) -> None:
        self._changes = changes

    def __call__(self, value: str, term: int, since_ms: int) -> None:
        changes = self._changes()
        if changes is not None:
            changes.deliver(Leader.from_native(value, term, since_ms))


class LeaderIterator(Iterator[Leader], AsyncIterator[Leader]):
    """The leader changes one reader follows, from an election's :meth:`dlock.Election.observe`:
    ``for leader in ...`` (blocking; in the main thread Ctrl-C ends the wait) or
    ``async for leader in ...`` (the event loop never waits). It ends when the election is
    closed, or when :meth:`close` is called. Read it from one thread or task at a time."""

    def __init__(self) -> None:
        self._mutex = os_lock()
        self._items: Deque[Any] = collections.deque()
        self._waiter: Optional[_Waiter] = None
        self._closed = False

    def push(self, item: Any) -> None:
        """Queues one item and wakes the reader (from any thread)."""
        with self._mutex:
            if self._closed:
                return
            self._items.append(item)
            waiter, self._waiter = self._waiter, None
        _wake(waiter)

    def _take(self, waiter: Callable[[], _Waiter]) -> Union[Leader, _Waiter]:
        """The next change, or the waiter (now registered) to wait on for one."""
        with self._mutex:
            if self._items:
                item = self._items[0]
                if item is _END:
                    raise StopIteration
                self._items.popleft()
                leader: Leader = item
                return leader
            if self._closed:
                raise StopIteration
            self._waiter = waiter()
            return self._waiter

    def __iter__(self) -> LeaderIterator:
        return self

    def __next__(self) -> Leader:
        while True:
            taken = self._take(threading.Event)
            if isinstance(taken, Leader):
                return taken
            assert isinstance(taken, threading.Event)
            taken.wait()

    def __aiter__(self) -> LeaderIterator:
        return self

    async def __anext__(self) -> Leader:
        loop = asyncio.get_running_loop()
        while True:
            try:
                taken = self._take(loop.create_future)
            except StopIteration:
                raise StopAsyncIteration from None
            if isinstance(taken, Leader):
                return taken
            assert isinstance(taken, asyncio.Future)
            try:
                await taken
            finally:
                with self._mutex:
                    if self._waiter is taken:
                        self._waiter = None  # cancelled: nobody waits any more

    def close(self) -> None:
        """Stops receiving changes; those already received are dropped."""
        with self._mutex:
            self._closed = True
            self._items.clear()
            waiter, self._waiter = self._waiter, None
        _wake(waiter)


def _wake(waiter: Optional[_Waiter]) -> None:
    """Wakes a reader, from any thread: a thread's event, or a task's future on its loop."""
    if isinstance(waiter, threading.Event):
        waiter.set()
    elif waiter is not None:
        try:
            waiter.get_loop().call_soon_threadsafe(_settle, waiter)
        except RuntimeError:
            pass  # its loop is closed: nobody reads any more


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
