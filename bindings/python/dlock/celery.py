"""A decorator for Celery tasks (or any function): one run at a time, or once per period.

    @app.task
    @dlock.celery.once(client, period=3600)  # at most one successful run per hour, any worker
    def hourly_report() -> None: ...

It sits under ``@app.task`` and needs nothing from Celery itself (``dlock-redis[celery]`` only
pulls Celery in). A run that finds the lock taken is skipped, never queued or retried: it
returns None at once and logs why at INFO on the ``dlock.celery`` logger (a retry would only
run the task again later, when ``once`` exists to make that run unnecessary).
"""

from __future__ import annotations

import functools
import logging
import math
import time
from typing import Any, Callable, Optional, TypeVar, cast

from dlock.arguments import require_str
from dlock.client import Client
from dlock.lock import Lock
from dlock.timeouts import lease_ms, positive_ms

F = TypeVar("F", bound=Callable[..., Any])

_log = logging.getLogger("dlock.celery")


def once(
    client: Client,
    *,
    name: Optional[str] = None,
    period: Optional[float] = None,
    lease: Optional[float] = None,
) -> Callable[[F], F]:
    """Runs the function holding the lock ``name`` (default ``celery:<module>.<function>``,
    the task's default name), acquired without waiting; a call that cannot take it is skipped
    (returns None).

    ``period`` None: one run at a time; the lock is released when the run ends.
    ``period`` in seconds: once per period, as ``dlock run --hold-after-success``: periods
    are aligned to the Unix epoch (3600: each hour, UTC), and a run that returns normally
    keeps the lock taken, renewed by nobody, until the end of the period in which it
    started, so every other call in that period is skipped; a run that raises releases it,
    so the next call may try again. ``lease``: as for :meth:`dlock.Client.lock` (None: renewed
    while the run lasts)."""
    if not isinstance(client, Client):
        raise TypeError(f"client must be a dlock.Client, not {type(client).__name__}")
    if period is not None:
        positive_ms(period, "period")
    lease_ms(lease)  # a bad lease fails here, not at the first run

    def decorate(function: F) -> F:
        lock_name = require_str(
            f"celery:{function.__module__}.{function.__qualname__}" if name is None else name,
            "name",
        )
        lock = client.lock(lock_name, lease=lease)

        @functools.wraps(function)
        def run_once(*args: Any, **kwargs: Any) -> Any:
            started = time.time()
            if not lock.acquire(blocking=False):
                _log.info("skipped %s: the lock %r is taken", function.__qualname__, lock_name)
                return None
            try:
                result = function(*args, **kwargs)
            except BaseException as error:
                # As leaving a `with` block: releases, and a release that fails too (the
                # lock was lost) is noted on the run's error instead of replacing it.
                lock.__exit__(type(error), error, error.__traceback__)
                raise
            _end_run(lock, period, started)
            return result

        return cast(F, run_once)

    return decorate


def _end_run(lock: Lock, period: Optional[float], started: float) -> None:
    """Releases the lock after a run that returned, keeping it to the end of the period."""
    if period is None:
        lock.release()
        return
    period_end = (math.floor(started / period) + 1) * period
    left = period_end - time.time()
    if left > 0:
        lock.release_keeping(left)
    else:
        lock.release()
