"""The locks compared, each behind the same two calls: acquire() (blocking) and release().

Every adapter is made inside the process that uses it, from the Redis URL and a lock name.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import pottery
import redis
import redis_lock

import dlock

LEASE_SECONDS = 10


class Contender(NamedTuple):
    acquire: Callable[[], object]
    release: Callable[[], object]


def _dlock(query: str = "") -> Callable[[str, str], Contender]:
    def make(url: str, name: str) -> Contender:
        lock = dlock.Client(url + query).lock(name)
        return Contender(lock.acquire, lock.release)

    return make


def _redis_py(sleep: float) -> Callable[[str, str], Contender]:
    def make(url: str, name: str) -> Contender:
        lock = redis.Redis.from_url(url).lock(name, timeout=LEASE_SECONDS, sleep=sleep)
        return Contender(lock.acquire, lock.release)

    return make


def _python_redis_lock(url: str, name: str) -> Contender:
    lock = redis_lock.Lock(redis.Redis.from_url(url), name, expire=LEASE_SECONDS)
    return Contender(lock.acquire, lock.release)


def _pottery(url: str, name: str) -> Contender:
    lock = pottery.Redlock(
        key=name, masters={redis.Redis.from_url(url)}, auto_release_time=LEASE_SECONDS
    )
    return Contender(lock.acquire, lock.release)


# The first entry is dlock, the one every ratio refers to.
ADAPTERS: dict[str, Callable[[str, str], Contender]] = {
    "dlock": _dlock(),
    # Before releases yielded to woken waiters: a releasing process that asks again at
    # once always won (the starvation the fairness figures show).
    "dlock, release_yield_ms=0": _dlock("?release_yield_ms=0"),
    "redis-py Lock (sleep=0.1)": _redis_py(0.1),
    "redis-py Lock (sleep=0.001)": _redis_py(0.001),
    "python-redis-lock": _python_redis_lock,
    "pottery Redlock (1 master)": _pottery,
}


# RedLocks over several servers: `urls` is their URLs separated by spaces.
def _dlock_redlock(urls: str, name: str) -> Contender:
    clients = [dlock.Client(url) for url in urls.split()]
    lock = dlock.RedLock(*(client.lock(name) for client in clients), lease=LEASE_SECONDS)
    return Contender(lock.acquire, lock.release)


def _pottery_redlock(urls: str, name: str) -> Contender:
    masters = {redis.Redis.from_url(url) for url in urls.split()}
    lock = pottery.Redlock(key=name, masters=masters, auto_release_time=LEASE_SECONDS)
    return Contender(lock.acquire, lock.release)


# The first entry is dlock, the one every ratio refers to.
REDLOCK_ADAPTERS: dict[str, Callable[[str, str], Contender]] = {
    "dlock RedLock": _dlock_redlock,
    "pottery Redlock": _pottery_redlock,
}
