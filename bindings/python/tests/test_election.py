"""Leader election (dlock.Election): campaigns and terms, hand-over on resign, proclaimed
values, observers that see every change once and in order, asyncio campaigns without a
thread, cancellation, losses, arguments."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator, Optional

import pytest
import redis

import dlock
from redis_server import RedisServer
from collected_leaders import Collected
from thread_counts import settled_threads


def leadership_key(name: str) -> str:
    """The lock that is the leadership (docs of dlock.h: dlock_election:{<name>})."""
    return f"dlock_election:{{{name}}}"


@pytest.fixture
def fast_client(redis_server: RedisServer) -> Iterator[dlock.Client]:
    """A client whose watchdog renews, and so notices a loss, within 0.2 s."""
    with dlock.Client(redis_server.url, watchdog_timeout=0.6) as opened:
        yield opened


def test_nobody_leads_until_a_campaign(client: dlock.Client, name: str) -> None:
    with client.election(name) as election:
        assert election.leader() is None
        assert not election.is_leader
        with pytest.raises(dlock.LockNotOwnedError):
            election.term


def test_campaign_leads_and_the_term_grows_on_the_next(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with client.election(name) as election, other_client.election(name) as other:
        before = datetime.now(timezone.utc)
        first = election.campaign("node-a")
        assert isinstance(first, int) and first > 0
        assert election.is_leader and election.term == first
        leader = other.leader()
        assert leader is not None
        assert (leader.value, leader.term) == ("node-a", first)
        assert leader.since.tzinfo is not None
        assert abs(leader.since - before) < timedelta(seconds=5)  # the server's clock
        # A leader campaigning again gets its term again, its value unchanged.
        assert election.campaign("ignored", timeout=0) == first
        assert other.leader() == leader

        election.resign()
        assert not election.is_leader
        assert other.leader() is None
        with pytest.raises(dlock.LockNotOwnedError):
            election.resign()

        second = election.campaign()  # no value: seen as ""
        assert second is not None and second > first
        now = other.leader()
        assert now is not None and (now.value, now.term) == ("", second)


def test_a_wait_that_runs_out_returns_none(client: dlock.Client, other_client: dlock.Client, name: str) -> None:
    with client.election(name) as leader, other_client.election(name) as candidate:
        leader.campaign("leader")
        assert candidate.campaign("candidate", timeout=0) is None
        started = time.monotonic()
        assert candidate.campaign("candidate", timeout=0.3) is None
        assert time.monotonic() - started >= 0.25
        assert asyncio.run(candidate.campaign_async("candidate", timeout=0.3)) is None
        assert not candidate.is_leader


def test_resign_hands_over_to_a_waiting_candidate_at_once(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with client.election(name) as first, other_client.election(name) as second:
        first_term = first.campaign("first")
        granted: list[Optional[int]] = []
        granted_at: list[float] = []

        def campaign() -> None:
            granted.append(second.campaign("second"))
            granted_at.append(time.monotonic())

        waiter = threading.Thread(target=campaign)
        waiter.start()
        time.sleep(0.5)  # the candidate waits by now
        assert not granted
        resigned_at = time.monotonic()
        first.resign()
        waiter.join(10)
        assert granted and granted[0] is not None and granted[0] > first_term  # type: ignore[operator]
        # The lease is the watchdog's 30 s: a hand-over by resign does not wait for it.
        assert granted_at[0] - resigned_at < 1.0
        assert second.is_leader and second.term == granted[0]
        leader = first.leader()
        assert leader is not None and (leader.value, leader.term) == ("second", granted[0])


def test_proclaim_is_seen_by_leader_and_observers(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with client.election(name) as election, other_client.election(name) as follower:
        term = election.campaign("starting")
        changes = Collected(follower.observe())
        assert [(leader.value, leader.term) for leader in changes.wait_for(1)] == [("starting", term)]
        election.proclaim("serving at 10.0.0.7:8080")
        seen = changes.wait_for(2)[1]
        assert (seen.value, seen.term) == ("serving at 10.0.0.7:8080", term)  # no new term
        assert follower.leader() == seen
        assert election.term == term
        with pytest.raises(dlock.LockNotOwnedError):
            follower.proclaim("not mine")
        follower.close()
        assert changes.ended(), "closing the election ends its iterators"


def test_observers_see_every_grant_once_and_in_order(
    client: dlock.Client, other_client: dlock.Client, redis_server: RedisServer, name: str
) -> None:
    """Candidates on three clients take turns; every observer's terms are exactly the
    grants, in order: strictly increasing, none twice, none missed. Three iterators of one
    election share its one native observer: a plain one, an `async for`, and a plain one
    opened midway (it starts from the leader of the moment)."""
    third_client = dlock.Client(redis_server.url)
    candidates = [client.election(name), other_client.election(name), third_client.election(name)]
    observer = other_client.election(name)
    rounds = 8
    total = 1 + rounds * len(candidates)
    try:
        first = candidates[0].campaign("0")
        assert first is not None
        grants = [first]
        early = Collected(observer.observe())
        early.wait_for(1)  # the observer follows the stream by now
        async_seen: list[dlock.Leader] = []
        subscribed = threading.Event()

        async def read_async() -> None:
            async for leader in observer.observe():
                async_seen.append(leader)
                subscribed.set()
                if len(async_seen) == total:
                    break

        async_thread = threading.Thread(target=lambda: asyncio.run(read_async()))
        async_thread.start()
        assert subscribed.wait(5)
        late: Optional[Collected] = None
        candidates[0].resign()
        for turn in range(rounds):
            for index, candidate in enumerate(candidates):
                term = candidate.campaign(str(index), timeout=10)
                assert term is not None
                grants.append(term)
                candidate.resign()
            if turn == rounds // 2:
                late = Collected(observer.observe())

        assert grants == sorted(set(grants)), "terms only grow"
        assert [leader.term for leader in early.wait_for(total)] == grants
        assert [leader.value for leader in early.leaders] == ["0"] + [str(i % 3) for i in range(total - 1)]
        async_thread.join(10)
        assert [leader.term for leader in async_seen] == grants
        assert late is not None
        first_late = grants.index(late.wait_for(1)[0].term)
        assert [leader.term for leader in late.wait_for(total - first_late)] == grants[first_late:]
        time.sleep(0.2)
        assert len(early.leaders) == total and len(late.leaders) == total - first_late, "none twice"
    finally:
        for candidate in candidates:
            candidate.close()
        observer.close()
        third_client.close()


def test_fifty_campaigning_tasks_cost_no_more_threads_than_one(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    holder = other_client.election(name)
    candidates = [client.election(name) for _ in range(50)]
    order: list[int] = []

    async def campaign_and_resign(candidate: dlock.Election) -> None:
        term = await candidate.campaign_async("task")
        assert term is not None
        order.append(term)
        candidate.resign()

    async def main() -> None:
        holder.campaign("holder")
        first = asyncio.ensure_future(campaign_and_resign(candidates[0]))
        with_one = await settled_threads()
        rest = [asyncio.ensure_future(campaign_and_resign(candidate)) for candidate in candidates[1:]]
        with_fifty = await settled_threads()
        assert not order
        assert with_fifty <= with_one, f"50 campaigns {with_fifty} threads, one {with_one}"
        holder.resign()
        await asyncio.wait_for(asyncio.gather(first, *rest), timeout=60)

    try:
        asyncio.run(main())
        assert len(order) == 50 and order == sorted(set(order))
    finally:
        for candidate in candidates:
            candidate.close()
        holder.close()


def test_cancelling_campaign_async_leaves_nothing_behind(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    with client.election(name) as holder, other_client.election(name) as candidate, client.election(
        name
    ) as next_one:

        async def main() -> None:
            holder.campaign("holder")
            task = asyncio.ensure_future(candidate.campaign_async("cancelled"))
            await asyncio.sleep(0.3)
            assert not task.done()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            holder.resign()
            # The cancelled candidate was not granted: the next one is, at once.
            term = await asyncio.wait_for(next_one.campaign_async("next"), timeout=5)
            assert term is not None and next_one.is_leader
            assert not candidate.is_leader

        asyncio.run(main())
        leader = candidate.leader()
        assert leader is not None and leader.value == "next"


def test_arguments_are_checked(client: dlock.Client, name: str) -> None:
    with pytest.raises(TypeError, match="name"):
        client.election(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="on_lost"):
        client.election(name, on_lost=5)  # type: ignore[arg-type]
    with client.election(name) as election:
        with pytest.raises(TypeError, match="value"):
            election.campaign(b"bytes")  # type: ignore[arg-type]
        with pytest.raises(dlock.InvalidArgumentError, match="value"):
            election.campaign("x" * 1025)
        with pytest.raises(dlock.InvalidArgumentError, match="value"):
            election.campaign("é" * 513)  # 1,026 bytes of UTF-8
        with pytest.raises(dlock.InvalidArgumentError, match="value"):
            election.campaign("nul\0inside")
        with pytest.raises(dlock.InvalidArgumentError, match="value"):
            election.campaign("\ud800")
        with pytest.raises(TypeError, match="timeout"):
            election.campaign("v", timeout="1")  # type: ignore[arg-type]
        with pytest.raises(dlock.InvalidArgumentError, match="timeout"):
            election.campaign("v", timeout=-2)
        with pytest.raises(TypeError, match="value"):
            asyncio.run(election.campaign_async(7))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="on_lost"):
            election.on_lost = "not callable"  # type: ignore[assignment]
        assert not election.is_leader, "no refused argument campaigned"
        term = election.campaign("é" * 512)  # exactly 1,024 bytes
        assert term is not None
        with pytest.raises(TypeError, match="value"):
            election.proclaim(None)  # type: ignore[arg-type]
        with pytest.raises(dlock.InvalidArgumentError, match="value"):
            election.proclaim("y" * 1025)
        leader = election.leader()
        assert leader is not None and leader.value == "é" * 512


class LostReports:
    """An on_lost callback that records each (name, term) it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.reported = threading.Event()

    def __call__(self, lost_name: str, term: int) -> None:
        self.calls.append((lost_name, term))
        self.reported.set()


def test_a_lost_leadership_calls_on_lost_and_ends_leading(
    fast_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    on_lost = LostReports()
    lost, reported = on_lost.calls, on_lost.reported

    with fast_client.election(name) as election:
        election.on_lost = on_lost
        assert election.on_lost is on_lost
        term = election.campaign("doomed")
        assert term is not None
        assert raw.delete(leadership_key(name)) == 1
        assert reported.wait(5), "on_lost was called"
        time.sleep(0.1)  # a second, wrong report would arrive about now
        assert lost == [(name, term)]
        assert not election.is_leader
        with pytest.raises(dlock.LockLostError):
            election.resign()
        # It may campaign again, for a new term.
        again = election.campaign("back", timeout=5)
        assert again is not None and again > term


def test_on_lost_given_to_the_client_and_resign_is_no_loss(
    fast_client: dlock.Client, raw: redis.Redis, name: str
) -> None:
    on_lost = LostReports()
    lost, reported = on_lost.calls, on_lost.reported

    with fast_client.election(name, on_lost=on_lost) as election:
        election.campaign()
        election.resign()
        time.sleep(0.5)
        assert lost == []
        term = election.campaign()
        raw.delete(leadership_key(name))
        assert reported.wait(5)
        assert lost == [(name, term)]


def test_close_resigns_ends_iterators_and_refuses_calls(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    other = other_client.election(name)
    try:
        with client.election(name) as election:
            election.campaign("closing")
            changes = Collected(election.observe())
            changes.wait_for(1)
        assert election.closed
        assert changes.ended()
        assert other.leader() is None, "closing resigned"
        assert other.campaign(timeout=0) is not None
        with pytest.raises(dlock.ClientClosedError):
            election.campaign()
        with pytest.raises(dlock.ClientClosedError):
            election.leader()
        election.close()  # idempotent
        assert list(election.observe()) == []
    finally:
        other.close()


def test_async_for_ends_when_the_election_closes(client: dlock.Client, name: str) -> None:
    election = client.election(name)

    async def main() -> list[Any]:
        await election.campaign_async("async")
        seen = []
        loop = asyncio.get_running_loop()
        loop.call_later(0.5, election.close)
        async for leader in election.observe():
            seen.append((leader.value, leader.term))
        return seen

    seen = asyncio.run(main())
    assert [value for value, _ in seen] == ["async"]


def test_exported_and_typed() -> None:
    assert dlock.Election.__name__ == "Election" and "Election" in dlock.__all__
    assert "Leader" in dlock.__all__
    leader = dlock.Leader("v", 3, datetime(2024, 1, 1, tzinfo=timezone.utc))
    with pytest.raises(AttributeError):
        leader.term = 4  # type: ignore[misc]
