"""client.read_write_lock(name): readers share, a writer excludes; with, async with,
re-entry, downgrade, Redisson's layout, bad input."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
import redis

import dlock


def test_readers_share_and_a_writer_waits(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    mine = client.read_write_lock(name)
    theirs = other_client.read_write_lock(name)
    with mine.read_lock() as read:
        assert read.held
        assert theirs.read_lock().acquire(blocking=False), "a second reader was refused"
        assert raw.hget(name, "mode") == "read"
        fields = [field for field in raw.hkeys(name) if field != "mode"]
        assert len(fields) == 2
        for field in fields:
            assert raw.pttl(f"{{{name}}}:{field}:rwlock_timeout:1") > 0
        assert not theirs.write_lock().acquire(blocking=False), "a writer entered beside readers"
        theirs.read_lock().release()
    assert raw.exists(name) == 0


def test_a_writer_excludes_readers_and_writers(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    with client.read_write_lock(name).write_lock() as write:
        assert write.fencing_token > 0
        assert raw.hget(name, "mode") == "write"
        assert not other_client.read_write_lock(name).read_lock().acquire(blocking=False)
        assert not other_client.read_write_lock(name).write_lock().acquire(blocking=False)
    assert raw.exists(name) == 0


def test_reentry_and_downgrade(client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str) -> None:
    rw = client.read_write_lock(name)
    write, read = rw.write_lock(), rw.read_lock()
    other_read = other_client.read_write_lock(name).read_lock()
    write.acquire()
    with write:
        assert write.hold_count == 2
    assert write.hold_count == 1
    with read:  # a writer may read
        assert read.fencing_token > write.fencing_token
        assert not other_read.acquire(blocking=False)
        write.release()  # downgrade: the read hold stays
        assert raw.hget(name, "mode") == "read"
        assert other_read.acquire(blocking=False), "readers still wait after the downgrade"
        other_read.release()
    assert raw.exists(name) == 0
    assert not write.held and not read.held


def test_a_release_wakes_a_waiting_writer(client: dlock.Client, other_client: dlock.Client, name: str) -> None:
    read = client.read_write_lock(name).read_lock()
    read.acquire()
    granted: list[float] = []

    def writer() -> None:
        write = other_client.read_write_lock(name).write_lock()
        with write:
            granted.append(time.monotonic())

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.2)
    assert not granted
    released = time.monotonic()
    read.release()
    thread.join(5)
    assert granted and granted[0] - released < 0.5


def test_async_with_on_both_sides(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    rw = client.read_write_lock(name)

    async def main() -> None:
        async with rw.write_lock() as write:
            assert write.held
            assert raw.hget(name, "mode") == "write"
        async with rw.read_lock() as read:
            assert read.held
            assert raw.hget(name, "mode") == "read"

    asyncio.run(main())
    assert raw.exists(name) == 0


def test_writer_preference_holds_new_readers_back_unless_turned_off(
    client: dlock.Client, other_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    holder = client.read_write_lock(name).read_lock()
    holder.acquire()
    rw = other_client.read_write_lock(name)
    newcomer = client.read_write_lock(name, thread_local=False).read_lock()  # another owner
    for preferred in (True, False):
        rw.set_writer_preference(preferred)
        writer = threading.Thread(target=lambda: rw.write_lock().acquire(timeout=0.5))
        writer.start()
        time.sleep(0.2)
        entered = newcomer.acquire(blocking=False)
        assert entered is not preferred
        if entered:
            newcomer.release()
        writer.join()
        assert not rw.write_lock().held
    holder.release()


def test_timeout_raises_with_a_blocking_timeout(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with client.read_write_lock(name).read_lock():
        write = other_client.read_write_lock(name, blocking_timeout=0.2).write_lock()
        with pytest.raises(dlock.LockTimeoutError):
            with write:
                pass


def test_bad_input(client: dlock.Client, raw: redis.Redis, name: str) -> None:
    with pytest.raises(dlock.InvalidArgumentError, match="name"):
        client.read_write_lock("")
    with pytest.raises(dlock.InvalidArgumentError, match="name"):
        client.read_write_lock("{x}")
    with pytest.raises(TypeError):
        client.read_write_lock(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        client.read_write_lock(name, timeout=3)  # type: ignore[call-arg]
    with pytest.raises(dlock.InvalidArgumentError, match="lease"):
        client.read_write_lock(name, lease=-3)
    with pytest.raises(dlock.UnsupportedError):
        client.read_write_lock(name).write_lock().inspect()
    raw.set(name, "a string")
    with pytest.raises(dlock.ProtocolError):
        client.read_write_lock(name).read_lock().acquire(blocking=False)
    assert raw.get(name) == "a string"
