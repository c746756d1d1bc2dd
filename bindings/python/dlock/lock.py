"""The distributed lock: threading.RLock's interface, plus leases, fencing and asyncio."""

from __future__ import annotations

import asyncio
from typing import Optional

from dlock import timeouts
from dlock.arguments import require_int, require_str
from dlock.blocks import HeldInBlocks
from dlock.handles import LostCallback, SharedLock
from dlock.in_greenlet import acquire_in_greenlet, release_in_greenlet, running_hub
from dlock.in_task import acquire_in_task, release_in_task
from dlock.lock_info import LockInfo, seconds_left
from dlock.owner import current_owner
from dlock.waiting import wait_in_thread

class Lock(HeldInBlocks):
    """A reentrant lock on Redis, made by :meth:`dlock.Client.lock`.

    It behaves like :class:`threading.RLock`, owned per thread, or per asyncio task for
    code running in one, or per greenlet under gevent or eventlet (see docs/gevent.md); or,
    made with ``thread_local=False``, owned by this object, so that whichever thread or task
    uses it shares its holds. Holds are counted locally: re-entering costs no round trip.

    Holds belong to their owner, not to this object: every Lock object of a client on the
    same name sees the same holds (those of its owner), and dropping the object keeps them.

    In a coroutine, use ``async with lock`` or the ``*_async`` methods: they never wait on
    Redis in the event loop. The other methods that make a round trip (``acquire``,
    ``release``, ``extend``, ``locked``, ``ttl``, ``force_release``) block the loop for it.
    """

    __slots__ = ("_shared", "_on_lost", "_lease_ms", "_blocking_timeout", "_owner")

    def __init__(
        self,
        shared: SharedLock,
        lease: float | None,
        blocking_timeout: float,
        on_lost: Optional[LostCallback] = None,
        owner: Optional[int] = None,
    ) -> None:
        # A bad timeout fails here, not at the first `with`.
        timeouts.wait_ms(True, blocking_timeout, "blocking_timeout")
        self._shared = shared
        self._on_lost = on_lost
        self._lease_ms = timeouts.lease_ms(lease)
        self._blocking_timeout = blocking_timeout
        self._owner = owner

    @property
    def name(self) -> str:
        return self._shared.native.name

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """Takes the lock, waiting at most ``timeout`` seconds (-1: forever); False if it could not.

        The wait releases the GIL and never polls; in the main thread Ctrl-C ends it. Under
        gevent or eventlet it yields to the hub (the thread's other greenlets keep running);
        killing the greenlet, or a Timeout of theirs, ends it.
        """
        wait_ms = timeouts.wait_ms(blocking, timeout)
        owner = self._caller()
        hub = running_hub()
        if hub is not None:
            token = acquire_in_greenlet(hub, self._shared, owner, wait_ms, self._lease_ms)
        else:
            if wait_ms == 0:
                token = self._shared.acquire(owner, 0, self._lease_ms)  # a try barges
            else:
                # Tried here first (no thread hop when free), in turn: a barging try would
                # overtake the waiter a release named, and fairness would go.
                token = self._shared.try_before_wait(owner, self._lease_ms)
                if token is None:
                    token = wait_in_thread(self._shared, owner, wait_ms, self._lease_ms)
        return self._took(owner, token)

    async def acquire_async(self, blocking: bool = True, timeout: float = -1) -> bool:
        """As :meth:`acquire`, for the current task (or this object's owner); the event loop
        never waits, neither for the lock nor for Redis. Cancelling the task cancels the
        wait, and a grant that won the race with the cancellation is released again."""
        wait_ms = timeouts.wait_ms(blocking, timeout)
        owner = self._caller()
        token = await acquire_in_task(self._shared, owner, wait_ms, self._lease_ms)
        return self._took(owner, token)

    def _caller(self) -> int:
        """Whose holds this call is about: this object's owner, else the thread or task."""
        return current_owner() if self._owner is None else self._owner

    def _took(self, owner: int, token: Optional[int]) -> bool:
        if token is None:
            return False
        self._shared.took(owner, token, self._on_lost)
        return True

    def release(self) -> None:
        """Releases one hold; raises LockNotOwnedError (a RuntimeError) when there is none,
        LockLostError when the hold had been lost, and LockExpiredError (a LockLostError)
        when its fixed ``lease`` had run out as asked. Under gevent or eventlet the round
        trip yields to the hub."""
        hub = running_hub()
        if hub is not None:
            release_in_greenlet(hub, self._shared, self._caller())
            return
        self._shared.release(self._caller())

    async def release_async(self) -> None:
        """As :meth:`release`, for the current task; the event loop never waits for Redis.
        Once started, the release happens even if the task is cancelled meanwhile."""
        await release_in_task(self._shared, self._caller())

    def extend(self, seconds: float) -> None:
        """Sets the remaining lease of the caller's hold to ``seconds`` from now (one round
        trip), for locks made with a fixed ``lease``: as redis-py's
        ``extend(seconds, replace_ttl=True)``, not its default of adding to the time left.
        Raises LockNotOwnedError when the caller holds nothing, LockLostError when its hold
        was lost (LockExpiredError when its lease had run out), InvalidArgumentError for a
        lease the watchdog renews (it never runs out).
        """
        self._shared.native.extend(self._caller(), timeouts.positive_ms(seconds, "seconds"))

    async def extend_async(self, seconds: float) -> None:
        """As :meth:`extend`, for the current task: the round trip runs in the loop's default
        executor."""
        lease_ms = timeouts.positive_ms(seconds, "seconds")
        owner = self._caller()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._shared.native.extend, owner, lease_ms)

    def release_keeping(self, seconds: float) -> None:
        """Ends the caller's hold but leaves the lock taken, renewed by nobody, for
        ``seconds`` more: nobody, this owner included, acquires it before then. For a
        once-per-period job that succeeded: the other nodes skip the rest of the period.
        Only an outermost hold can be kept (InvalidArgumentError when re-entered);
        LockNotOwnedError when the caller holds nothing, LockLostError when its hold was
        lost."""
        self._shared.native.release_keeping(self._caller(), timeouts.positive_ms(seconds, "seconds"))

    def inspect(self) -> LockInfo:
        """Who holds the lock, its lease and its last fencing token, in one round trip;
        any client may inspect any lock."""
        return LockInfo.from_native(self._shared.native.inspect())

    def count_attempt(self, period_id: str, expires_in: float, max_attempts: int) -> int | None:
        """Counts one attempt at a job in the period ``period_id`` (a counter that lapses
        ``expires_in`` seconds after its first attempt): the attempt's number, or None when
        ``max_attempts`` were already counted (nothing is counted then). Call it while
        holding the lock, so that the attempt it counts is the caller's."""
        return self._shared.native.count_attempt(
            require_str(period_id, "period_id"),
            timeouts.positive_ms(expires_in, "expires_in"),
            require_int(max_attempts, "max_attempts"),
        )

    def owned(self) -> bool:
        """True when the caller (this thread or task, or this object's owner) holds the lock
        and its hold is valid by dlock's own clock, as redis-py's ``owned()``; no round trip
        (the same as :attr:`held`)."""
        return self.held

    def locked(self) -> bool:
        """True when anyone holds the lock (one round trip)."""
        return self._shared.native.is_locked()

    @property
    def held(self) -> bool:
        """True when the caller holds the lock and it is not known lost."""
        return self._shared.native.is_held(self._caller())

    @property
    def hold_count(self) -> int:
        """The caller's number of holds (0 when it holds none)."""
        return self._shared.native.hold_count(self._caller())

    @property
    def fencing_token(self) -> int:
        """The caller's current fencing token; raises LockNotOwnedError when it holds none."""
        return self._shared.native.fencing_token(self._caller())

    @property
    def ttl(self) -> float | None:
        """Seconds left on whoever's lease (inf: no expiry), None when nobody holds it."""
        return seconds_left(self._shared.native.ttl_ms())

    def force_release(self) -> bool:
        """Deletes the lock whoever holds it; that holder learns of it as a lost lock.
        Returns whether it was held (False: it was free)."""
        return self._shared.native.force_release()

    def _describe(self) -> str:
        return f"lock {self.name!r}"

    def __repr__(self) -> str:
        return f"<dlock.Lock {self.name!r}>"
