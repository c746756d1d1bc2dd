"""dlock's log records, routed to ``logging.getLogger("dlock")`` (installed at import).

The core says what a person on call needs: connections lost and regained, renewals failing
and recovering, locks lost (WARNING), long waits (INFO), transient server states retried
(DEBUG), a server whose eviction policy may evict lock keys (WARNING). Records never hold
a password. Every level is forwarded; the ``dlock`` logger's level (or its handlers')
decides what is kept.

The core logs from its own threads and from threads waiting inside dlock, which must never
wait for the GIL there: it only queues each record. A daemon thread, ``dlock-log``, takes
them and calls the logger, so a record reaches the handlers a moment after the event, on
that thread. It is an OS thread also under gevent's or eventlet's patching: as a greenlet,
its blocking read would stop every greenlet of the importing thread.
"""

from __future__ import annotations

import logging
import os
import posix

from dlock import _dlock
from dlock.greenlets import start_os_thread

logger = logging.getLogger("dlock")
# A library's logger: records go where the application's logging config sends them, and
# nowhere (not to logging's last-resort stderr handler) when it has none.
logger.addHandler(logging.NullHandler())

_LEVELS = {
    _dlock.LOG_ERROR: logging.ERROR,
    _dlock.LOG_WARN: logging.WARNING,
    _dlock.LOG_INFO: logging.INFO,
    _dlock.LOG_DEBUG: logging.DEBUG,
}


def _drain(wakeup_fd: int) -> None:
    while True:
        try:
            # posix.read, not os.read: eventlet's patched os.read would wait on a hub.
            posix.read(wakeup_fd, 4096)  # releases the GIL until the core queues a record
        except OSError:
            return
        for level, message in _dlock.take_log_records():
            logger.log(_LEVELS.get(level, logging.DEBUG), message)


def _start_draining() -> None:
    start_os_thread("dlock-log", _drain, _dlock.log_wakeup_fd())


_dlock.install_log_queue()
_start_draining()
# A forked child has no drain thread (and a queue of its own): it gets one.
os.register_at_fork(after_in_child=_start_draining)
