"""Leader election: one leader at a time among the candidates of a name, with a term."""

from __future__ import annotations

import weakref
from types import TracebackType
from typing import Optional, Type

from dlock import _dlock, timeouts
from dlock.arguments import require_callable_or_none, require_str
from dlock.blocking import wait_interruptibly
from dlock.errors import error_for_status
from dlock.handles import LostCallback, LostDispatch
from dlock.in_greenlet import running_hub, wait_in_greenlet
from dlock.in_task import wait_in_task
from dlock.leader import Leader
from dlock.leader_changes import LeaderChanges, LeaderIterator
from dlock.native_calls import NativeWait, give_back_in_thread


def _value(value: object) -> str:
    """A value to publish: text of at most ELECTION_VALUE_MAX bytes of UTF-8."""
    text = require_str(value, "value")
    size = len(text.encode())
    if size > _dlock.ELECTION_VALUE_MAX:
        raise error_for_status(
            _dlock.E_INVALID,
            f"value: must be at most {_dlock.ELECTION_VALUE_MAX} bytes of UTF-8, got {size}",
        )
    return text


def _wait_ms(timeout: float | None) -> int:
    return timeouts.wait_ms(True, -1 if timeout is None else timeout)


def _nothing_taken(term: int) -> None:
    """A campaign of a candidate that led already: giving back is not its to do."""


class Election:
    """A candidate for the leadership of ``name``, made by :meth:`dlock.Client.election`;
    no round trip. The candidate is this object, not a thread: any thread or task may
    campaign, resign or proclaim for it, and it campaigns for one leadership at a time.

    The leader's term is a fencing token that only grows: hand it to the resource the
    leader drives. Leadership is a lock renewed by the client's watchdog: a leader that
    crashes is replaced once its lease runs out; one that is cut off is told by its
    validity deadline, before another candidate can be granted (``on_lost(name, term)`` is
    called, :attr:`is_leader` turns False), and may campaign again. :meth:`resign` hands
    over at once to a waiting candidate.

    Values are str, at most 1,024 bytes of UTF-8. Times are seconds. Usable as a context
    manager, which closes it (resigning if it leads). See docs/election.md.
    """

    __slots__ = ("_native", "_on_lost", "_changes", "__weakref__")

    def __init__(
        self, native_client: _dlock.Client, name: str, on_lost: Optional[LostCallback] = None
    ) -> None:
        require_str(name, "name")
        self._on_lost = require_callable_or_none(on_lost, "on_lost")
        # The native callback always reports here, so that on_lost can be set any time.
        self._native = _dlock.Election(native_client, name, LostDispatch(weakref.ref(self)))
        self._changes = LeaderChanges(self._native.observe)

    @property
    def name(self) -> str:
        return self._native.name

    def campaign(self, value: str | None = None, timeout: float | None = None) -> Optional[int]:
        """Becomes leader, publishing ``value`` (None: none, seen as ""), waiting at most
        ``timeout`` seconds (None: forever, 0: one attempt) while another leads: the term,
        or None when the wait ran out (as :meth:`PermitExpirableSemaphore.acquire` reports
        it; nothing is raised). A candidate that leads already gets its term again, its
        value unchanged (:meth:`proclaim` changes it). The wait never polls; in the main
        thread Ctrl-C ends it, and a leadership that won the race with Ctrl-C is resigned.
        Under gevent or eventlet it yields to the hub."""
        text = None if value is None else _value(value)
        wait_ms = _wait_ms(timeout)
        hub = running_hub()
        if hub is not None:
            term: Optional[int] = wait_in_greenlet(hub, self._campaigning(text, wait_ms))
            return term
        # An attempt first: a free leadership costs no thread.
        term = self._native.campaign(text, 0)
        if term is None and wait_ms != 0:
            term = wait_interruptibly(
                lambda cancel: self._native.campaign(text, wait_ms, cancel), self._resign_taken
            )
        return term

    async def campaign_async(
        self, value: str | None = None, timeout: float | None = None
    ) -> Optional[int]:
        """As :meth:`campaign`, on the event loop without blocking it and without a thread:
        the wait is the C library's asynchronous one. Cancelling the task cancels the wait,
        and a leadership that won the race with the cancellation is resigned."""
        text = None if value is None else _value(value)
        term: Optional[int] = await wait_in_task(self._campaigning(text, _wait_ms(timeout)))
        return term

    def _campaigning(self, text: Optional[str], wait_ms: int) -> NativeWait:
        # A leader's campaign gets its term back: a waiter giving up then resigns nothing.
        undo = _nothing_taken if self._native.is_leader() else self._resign_in_thread
        return NativeWait(
            lambda cancel, done: self._native.campaign_async(text, wait_ms, cancel, done), undo
        )

    def _resign_taken(self, term: Optional[int]) -> None:
        self._native.resign()

    def _resign_in_thread(self, term: int) -> None:
        give_back_in_thread(self._native.resign)

    def resign(self) -> None:
        """Gives the leadership up at once: the next waiting candidate is granted without
        waiting for a lease. Raises LockNotOwnedError when this candidate does not lead,
        LockLostError when its leadership had been lost."""
        self._native.resign()

    def proclaim(self, value: str) -> None:
        """Publishes a new value for the leader's term (no new term); every observer sees
        it. Raises LockNotOwnedError when this candidate does not lead."""
        self._native.proclaim(_value(value))

    def leader(self) -> Optional[Leader]:
        """The current leader as the server has it (one round trip; any candidate of the
        name sees the same), None when nobody leads."""
        native = self._native.leader()
        return None if native is None else Leader.from_native(*native)

    @property
    def is_leader(self) -> bool:
        """True while this candidate leads and its term is valid by the client's clock; no
        round trip."""
        return self._native.is_leader()

    @property
    def term(self) -> int:
        """This candidate's term while it leads; raises LockNotOwnedError otherwise (as
        :attr:`Lock.fencing_token` does); no round trip."""
        return self._native.term()

    @property
    def on_lost(self) -> Optional[LostCallback]:
        """Called as ``on_lost(name, term)`` once when this candidate's leadership is lost
        (renewals failed, its lease ran out), before another candidate can be granted. It
        runs on the client's watchdog thread, so it must return quickly and must not wait
        on dlock; set None to be told nothing. A resignation is no loss."""
        return self._on_lost

    @on_lost.setter
    def on_lost(self, on_lost: Optional[LostCallback]) -> None:
        self._on_lost = require_callable_or_none(on_lost, "on_lost")

    def report_lost(self, name: str, owner: int, token: int) -> None:
        """The native lost callback, on the watchdog's thread."""
        on_lost = self._on_lost
        if on_lost is not None:
            on_lost(name, token)

    def observe(self) -> LeaderIterator:
        """The leader changes of this name, in order, none twice and none missed: first the
        leader of the moment (when there is one), then every new term and every proclaimed
        value. Iterate with ``for`` (blocking) or ``async for`` (the event loop never
        waits). The election follows them with one observer (a thread and a connection of
        its own) from the first call on, for every iterator; iterators end when the
        election is closed, or by their ``close()``. A resignation with no successor is no
        change: :meth:`leader` tells whether anyone leads."""
        return self._changes.subscribe()

    def close(self) -> None:
        """Stops observing (every iterator ends), resigns if this candidate leads, and frees
        the native handle. Idempotent; other calls raise ClientClosedError after it. A
        campaign under way on another thread keeps the handle until it returns."""
        self._changes.end()
        self._native.close()

    @property
    def closed(self) -> bool:
        return self._native.closed

    def __enter__(self) -> Election:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<dlock.Election {self.name!r}>"
