"""dlock.django: django-redis's cache.lock() arguments on dlock, without a Django project."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Iterator

import pytest
import redis

import dlock
import dlock.django
from redis_server import RedisServer


@pytest.fixture
def default_lock_url(redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("DLOCK_URL", redis_server.url)
    monkeypatch.setattr(dlock.django, "_default", None)
    yield
    made = dlock.django._default
    if made is not None:
        made.client.close()


def test_timeout_is_the_lease_and_keys_are_prefixed(
    client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    cache = dlock.django.DLockCache(client, key_prefix="app:")
    with cache.lock(name, timeout=5) as lock:
        assert lock.held
        assert 0 < raw.pttl(f"app:{name}") <= 5000
    assert not raw.exists(f"app:{name}")


def test_blocking_timeout_and_non_blocking(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    other_client.lock(name).acquire()
    cache = dlock.django.DLockCache(client)
    started = time.monotonic()
    with pytest.raises(dlock.LockTimeoutError):
        with cache.lock(name, blocking_timeout=0.3):
            pass
    assert time.monotonic() - started >= 0.25
    with pytest.raises(dlock.LockTimeoutError):
        with cache.lock(name, blocking=False):
            pass


def test_the_module_lock_uses_dlock_url(
    default_lock_url: None, raw: redis.Redis, name: str
) -> None:
    with dlock.django.lock(name, timeout=10):
        assert raw.exists(name)
    assert not raw.exists(name)


def test_the_module_lock_prefers_django_settings(redis_server: RedisServer, name: str) -> None:
    pytest.importorskip("django", reason="Django is not installed (pip install '.[test]')")
    # Configuring Django is for the whole process: a child of its own does it.
    child = f"""
import django.conf, dlock.django
django.conf.settings.configure(DLOCK_URL={redis_server.url!r})
with dlock.django.lock({name!r}, timeout=10) as lock:
    print(lock.locked())
"""
    # Nothing listens on port 1: only the settings' URL can work.
    environment = {**os.environ, "DLOCK_URL": "redis://127.0.0.1:1"}
    result = subprocess.run(
        [sys.executable, "-c", child], env=environment, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
