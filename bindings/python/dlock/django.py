"""django-redis's ``cache.lock()`` on dlock, with or without Django.

    from dlock.django import lock

    with lock("invoice:42", timeout=60, blocking_timeout=5):
        ...

``lock()`` uses one client per process, made at first use from Django's ``settings.DLOCK_URL``
when Django is installed and configured, else from the ``DLOCK_URL`` environment variable
(the ``dlock`` command's), else ``redis://127.0.0.1:6379``. ``DLockCache(client)`` is the same
over a client of your own.
"""

from __future__ import annotations

import importlib
import os
import threading
from typing import Any, Optional

from dlock.arguments import require_str
from dlock.client import Client
from dlock.lock import Lock

DEFAULT_URL = "redis://127.0.0.1:6379"


class DLockCache:
    """The lock half of a django-redis cache: ``lock()`` takes its arguments, each name
    prefixed with ``key_prefix``."""

    def __init__(self, client: Client, key_prefix: str = "") -> None:
        if not isinstance(client, Client):
            raise TypeError(f"client must be a dlock.Client, not {type(client).__name__}")
        self.client = client
        self.key_prefix = require_str(key_prefix, "key_prefix")

    def lock(
        self,
        key: str,
        timeout: Optional[float] = None,
        sleep: float = 0.1,
        blocking: bool = True,
        blocking_timeout: Optional[float] = None,
        thread_local: bool = True,
    ) -> Lock:
        """A :class:`dlock.Lock` on ``key_prefix + key``, a context manager. As django-redis's:
        ``timeout`` is the lease in seconds (None: renewed by dlock's watchdog while held,
        where redis-py's would never expire); ``blocking_timeout`` bounds the wait of
        ``with`` (None: forever), which raises dlock.LockTimeoutError when it runs out;
        ``blocking=False`` makes ``with`` try once. ``sleep`` is accepted and unused: dlock
        waits for the release message instead of polling."""
        if not blocking:
            wait = 0.0
        elif blocking_timeout is None:
            wait = -1
        else:
            wait = blocking_timeout
        return self.client.lock(
            self.key_prefix + require_str(key, "key"),
            lease=timeout,
            blocking_timeout=wait,
            thread_local=thread_local,
        )


_default: Optional[DLockCache] = None
_default_made = threading.Lock()


def lock(
    key: str,
    timeout: Optional[float] = None,
    sleep: float = 0.1,
    blocking: bool = True,
    blocking_timeout: Optional[float] = None,
    thread_local: bool = True,
) -> Lock:
    """:meth:`DLockCache.lock` on the process's default client (see the module's help)."""
    global _default
    with _default_made:
        if _default is None:
            _default = DLockCache(Client(_configured_url()))
    return _default.lock(key, timeout, sleep, blocking, blocking_timeout, thread_local)


def _configured_url() -> str:
    settings = _django_settings()
    url = getattr(settings, "DLOCK_URL", None) if settings is not None else None
    return require_str(url or os.environ.get("DLOCK_URL") or DEFAULT_URL, "DLOCK_URL")


def _django_settings() -> Optional[Any]:
    """Django's settings when Django is installed and configured, else None. Imported by
    name: Django is not a dependency, and its settings are read only when configured."""
    try:
        conf = importlib.import_module("django.conf")
    except ImportError:
        return None
    return conf.settings if conf.settings.configured else None
