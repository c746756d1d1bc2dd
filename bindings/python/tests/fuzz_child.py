"""Calls every public call of the package with hostile arguments; run by test_fuzz.py.

    python fuzz_child.py SEED CALLS PREFIX VICTIMS_JSON URL URL URL

Each call is printed (flushed) before it is made, so that a crash of the interpreter names
it. A call may return or raise one of the documented types (ALLOWED); anything else ends
the run with exit status 3 and the call and its traceback on stdout. The victims (locks
and a permit another client holds) are named in VICTIMS_JSON: calls reach them only with
arguments that make no wait (no forever, no long timeout), and never through a call that
releases whoever holds (force_release, the permit's exact id).
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import sys
import traceback
from typing import Any, Callable, Dict, List

import dlock

# The caller's own mistakes, and the outcomes the docs name for calls on another's lock.
ALLOWED = (
    TypeError,
    ValueError,
    OverflowError,
    dlock.LockNotOwnedError,
    dlock.LockLostError,
    dlock.LockTimeoutError,
    dlock.ClientClosedError,
    dlock.UnsupportedError,  # inspect() and the like on a read-write lock's side
)

TEXT: List[Any] = [
    "", "\x00", "a\x00", "\x00a", "a\x00b", "\ud800", "a\udfff", "\udc80\ud800",
    "x" * 1025, "é" * 600, "y" * 200_000, "{", "}", "{}", "a{}b", "{\x00}", "\u2028", "🔒",
]
INTS: List[Any] = [
    0, -1, -2, 1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1,
    2**64, 10**100, -(10**100),
]
# Seconds that never mean "wait for ever" nor wait long: those are valid, not hostile.
SECONDS: List[Any] = [
    math.nan, -math.nan, math.inf, -math.inf, 0, 0.0, -0.0, 1e-300, -1e-300, -2, -1.5,
    1e308, -1e308, 2.0**31 + 1, 2**64, 10**400, -(10**400),
]
WRONG_TYPES: List[Any] = [None, b"", b"\x00", bytearray(b"x"), [], {}, object(), 1j, True, 1.5, "1"]
# Wrong types for a number of seconds, without those that make a valid one (None, True, 1.5).
NOT_SECONDS: List[Any] = [b"", b"\x00", bytearray(b"x"), [], {}, object(), 1j, "1", "\x00"]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}...({len(text)} chars)"


class Fuzz:
    def __init__(self, rng: random.Random, prefix: str, victims: Dict[str, str], urls: List[str]):
        self.rng = rng
        self.prefix = prefix
        self.victims = victims
        self.urls = urls
        self.clients = [dlock.Client(url) for url in urls]
        self.client = self.clients[0]
        self.closed = dlock.Client(urls[0])
        self.closed.close()
        self.count = 0

    # ---- hostile values

    def pick(self, values: List[Any], others: List[Any] = ()) -> Any:  # type: ignore[assignment]
        """Mostly a value of the expected kind, sometimes one of another kind or type. Each
        is printed, so that a crash shows the arguments of the call it ended."""
        pool = values if self.rng.random() < 0.7 else list(others) or TEXT + INTS + SECONDS + WRONG_TYPES
        value = self.rng.choice(pool)
        print(f"  {_short(value)}", flush=True)
        return value

    def choose(self, choices: List[Any]) -> Any:
        """A method or an object to call on, printed as the arguments are."""
        choice = self.rng.choice(choices)
        print(f"  {choice}", flush=True)
        return choice

    def text(self, extra: List[Any] = ()) -> Any:  # type: ignore[assignment]
        return self.pick(TEXT + list(extra))

    def int_(self) -> Any:
        return self.pick(INTS)

    def seconds(self) -> Any:
        return self.pick(SECONDS, TEXT + NOT_SECONDS)

    def lease(self) -> Any:
        return self.pick(SECONDS + [None])

    def sometimes(self, draw: Callable[[], Any], usual: Any) -> Any:
        """A hostile option now and then, so that most objects get made and their methods
        called."""
        return draw() if self.rng.random() < 0.2 else usual

    def callback(self) -> Any:
        return self.pick([None, lambda *args: None, 42, "on_lost"])

    def name(self) -> Any:
        """A hostile name, an own valid one, or a victim's."""
        choice = self.rng.random()
        if choice < 0.4:
            return self.text()
        if choice < 0.7:
            return f"{self.prefix}-{self.rng.randrange(4)}"
        return self.victims["lock"]

    def permit_id(self) -> Any:
        """Never the victim's exact id: releasing by id is Redisson's documented right."""
        victim = self.victims["permit_id"]
        return self.text([victim + "\x00", "\x00" + victim, victim[:-1], victim + "\ud800",
                          victim[:16] + "\x00" + victim[16:], victim.upper() + "\x00"])

    # ---- the objects to call on

    def any_client(self) -> dlock.Client:
        index = self.rng.randrange(len(self.clients) + 1)
        print(f"  client {index}" + (" (closed)" if index == len(self.clients) else ""), flush=True)
        return self.clients[index] if index < len(self.clients) else self.closed

    def lock_objects(self) -> List[dlock.Lock]:
        client = self.any_client()
        kind = self.rng.randrange(4)
        name = self.choose([self.victims[["lock", "fair", "rw", "lock"][kind]],
                                f"{self.prefix}-{kind}"])
        options = dict(lease=self.sometimes(self.lease, None),
                       blocking_timeout=self.sometimes(self.seconds, 0),
                       thread_local=self.pick([True, False]),
                       on_lost=self.sometimes(self.callback, None))
        if kind == 1:
            return [client.fair_lock(name, **options)]
        if kind == 2:
            rw = client.read_write_lock(name, **options)
            rw.set_writer_preference(self.pick([True, False]))
            return [rw.read_lock(), rw.write_lock()]
        return [client.lock(name, **options)]

    # ---- the calls

    def calls(self) -> Dict[str, Callable[[], Any]]:
        return {
            "Client": self.call_client,
            "Client.lock": lambda: self.client.lock(
                self.name(), lease=self.lease(), blocking_timeout=self.seconds(),
                on_lost=self.callback()),
            "Client.fair_lock": lambda: self.client.fair_lock(
                self.name(), lease=self.lease(), blocking_timeout=self.seconds()),
            "Client.read_write_lock": lambda: self.client.read_write_lock(
                self.name(), lease=self.lease(), blocking_timeout=self.seconds()),
            "Client.semaphore": lambda: self.client.semaphore(self.name()),
            "Client.permit_expirable_semaphore": lambda: self.client.permit_expirable_semaphore(
                self.name(), on_lost=self.callback()),
            "Client.count_down_latch": lambda: self.client.count_down_latch(self.name()),
            "Client.synchronized": self.call_synchronized,
            "Client.stats": lambda: self.any_client().stats(),
            "Lock": self.call_lock,
            "Lock async": self.call_lock_async,
            "Semaphore": self.call_semaphore,
            "PermitExpirableSemaphore": self.call_permit_semaphore,
            "CountDownLatch": self.call_latch,
            "MultiLock": lambda: self.call_group(dlock.MultiLock, [self.client] * 3),
            "RedLock": lambda: self.call_group(dlock.RedLock, self.clients),
        }

    def call_client(self) -> Any:
        options = self.choose(["connect_timeout", "command_timeout", "watchdog_timeout",
                                   "pool_size", "tls_ca", "tls_sni", "tls_verify",
                                   "sync_replicas", "sync_timeout"])
        value = self.int_() if options in ("pool_size", "sync_replicas") else (
            self.text() if options.startswith("tls") else self.seconds())
        url = self.urls[0] if self.rng.random() < 0.5 else self.text()
        try:
            with dlock.Client(url, **{options: value}):
                pass
        except dlock.ConnectionError:
            pass  # a valid timeout of a millisecond may be too short to connect

    def call_synchronized(self) -> Any:
        decorate = self.client.synchronized(self.name(), lease=self.lease(),
                                            blocking_timeout=self.seconds())
        return decorate(lambda: None)()

    def call_lock(self) -> Any:
        for lock in self.lock_objects():
            method = self.choose(["acquire", "release", "extend", "release_keeping",
                                      "inspect", "count_attempt", "owned", "locked", "held",
                                      "hold_count", "fencing_token", "ttl", "force_release",
                                      "with", "name"])
            if method == "acquire":
                lock.acquire(self.pick([True, False]), self.seconds())
            elif method == "release":
                lock.release()
            elif method == "extend":
                lock.extend(self.seconds())
            elif method == "release_keeping":
                lock.release_keeping(self.seconds())
            elif method == "count_attempt":
                lock.count_attempt(self.text(), self.seconds(), self.int_())
            elif method == "force_release":
                if lock.name not in self.victims.values():
                    lock.force_release()
            elif method == "with":
                with lock:
                    pass
            else:
                attribute = getattr(lock, method)
                attribute() if callable(attribute) else None

    def call_lock_async(self) -> Any:
        lock = self.lock_objects()[0]
        method = self.choose(["acquire_async", "release_async", "extend_async", "async with"])

        async def run() -> None:
            if method == "acquire_async":
                await lock.acquire_async(self.pick([True, False]), self.seconds())
            elif method == "release_async":
                await lock.release_async()
            elif method == "extend_async":
                await lock.extend_async(self.seconds())
            else:
                async with lock:
                    pass

        asyncio.run(run())

    def call_semaphore(self) -> Any:
        semaphore = self.any_client().semaphore(self.choose([self.victims["semaphore"],
                                                                 f"{self.prefix}-sem"]))
        method = self.choose(["acquire", "acquire_async", "release", "release_async",
                                  "try_set_permits", "available_permits", "with", "name"])
        if method == "acquire":
            semaphore.acquire(self.pick([True, False]), self.seconds(), self.int_())
        elif method == "acquire_async":
            asyncio.run(semaphore.acquire_async(self.seconds(), self.int_()))
        elif method == "release":
            semaphore.release(self.int_())
        elif method == "release_async":
            asyncio.run(semaphore.release_async(self.int_()))
        elif method == "try_set_permits":
            semaphore.try_set_permits(self.int_())
        elif method == "with":
            # A free semaphore of its own: `with` waits for ever.
            own = self.client.semaphore(f"{self.prefix}-with")
            own.try_set_permits(1)
            with own:
                pass
        elif method == "available_permits":
            semaphore.available_permits()

    def call_permit_semaphore(self) -> Any:
        semaphore = self.any_client().permit_expirable_semaphore(
            self.choose([self.victims["permits"], f"{self.prefix}-permits"]),
            on_lost=self.sometimes(self.callback, None))
        method = self.choose(["acquire", "acquire_async", "release", "try_release",
                                  "try_set_permits", "available_permits", "permit"])
        if method == "acquire":
            semaphore.acquire(self.seconds(), self.lease())
        elif method == "acquire_async":
            asyncio.run(semaphore.acquire_async(self.seconds(), self.lease()))
        elif method == "release":
            semaphore.release(self.permit_id())
        elif method == "try_release":
            semaphore.try_release(self.permit_id())
        elif method == "try_set_permits":
            semaphore.try_set_permits(self.int_())
        elif method == "available_permits":
            semaphore.available_permits()
        else:
            permit = semaphore.acquire(0, self.lease())
            if permit is not None:
                with permit:
                    pass

    def call_latch(self) -> Any:
        latch = self.any_client().count_down_latch(
            self.choose([self.victims["latch"], f"{self.prefix}-latch"]))
        method = self.choose(["try_set_count", "count_down", "count", "wait", "wait_async"])
        if method == "try_set_count":
            latch.try_set_count(self.int_())
        elif method == "count_down":
            if latch.name != self.victims["latch"]:
                latch.count_down()
        elif method == "count":
            latch.count
        elif method == "wait":
            latch.wait(self.seconds())
        else:
            asyncio.run(latch.wait_async(self.seconds()))

    def call_group(self, kind: Any, clients: List[dlock.Client]) -> Any:
        members: List[Any] = [client.lock(self.choose([f"{self.prefix}-g{i}", self.victims["lock"]]))
                              for i, client in enumerate(clients)]
        if self.rng.random() < 0.2:
            members[self.rng.randrange(len(members))] = self.pick(WRONG_TYPES)
        group = kind(*members, lease=self.sometimes(self.lease, None),
                     blocking_timeout=self.sometimes(self.seconds, 0),
                     on_lost=self.sometimes(self.callback, None))
        method = self.choose(["acquire", "acquire_async", "release", "release_async",
                                  "hold_count", "held", "names", "with", "validity"])
        if method == "acquire":
            group.acquire(self.pick([True, False]), self.seconds(), self.lease())
        elif method == "acquire_async":
            asyncio.run(group.acquire_async(self.pick([True, False]), self.seconds(), self.lease()))
        elif method == "release":
            group.release()
        elif method == "release_async":
            asyncio.run(group.release_async())
        elif method == "with":
            with group:
                pass
        elif method != "validity" or kind is dlock.RedLock:
            getattr(group, method)

    def run(self, count: int) -> None:
        calls = self.calls()
        labels = sorted(calls)
        for number in range(count):
            label = self.rng.choice(labels)
            # The random state before the call: with the seed, enough to replay it.
            print(f"call {number}: {label}", flush=True)
            try:
                calls[label]()
            except ALLOWED:
                pass
            except BaseException:
                print(f"call {number}: {label} raised a type not documented:", flush=True)
                traceback.print_exc(file=sys.stdout)
                sys.stdout.flush()
                sys.exit(3)
        for client in self.clients:
            client.close()


def main() -> None:
    seed, count, prefix, victims = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    Fuzz(random.Random(seed), prefix, json.loads(victims), sys.argv[5:]).run(count)
    print("done", flush=True)


if __name__ == "__main__":
    main()
