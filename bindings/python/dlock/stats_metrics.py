"""What the metrics integrations (dlock.prometheus, dlock.otel) export: one metric per field
of Client.stats(), its kind, unit and help text, so both name and scale them alike."""

from __future__ import annotations

from typing import Iterator, NamedTuple, Tuple

from dlock.client import Client
from dlock.errors import ClientClosedError

_HELP = {
    "grants": "Holds granted by the server (re-entries not included)",
    "reentries": "Acquires that re-entered the owner's hold (no round trip)",
    "waits": "Acquires that found the lock taken and waited",
    "handoffs": "Grants after a wait that a release message woke",
    "renewals": "Leases renewed by the watchdog, one per hold",
    "renewal_round_trips": "The watchdog's renewal batches (round trips)",
    "locks_lost": "Holds found lost (taken away, or a watchdog lease that lapsed)",
    "reconnects": "Connections made again after one broke or could not be made",
    "transient_retries": "Commands retried after LOADING, BUSY, MASTERDOWN, TRYAGAIN...",
    "failovers": "Sentinel master moves the client followed",
    "expiries": "Fixed leases that ran out as asked while still held",
    "wait_p50_us": "Median wait of the acquires that waited and were granted",
    "wait_p99_us": "99th percentile wait of the acquires that waited and were granted",
    "wait_max_us": "Longest wait of an acquire that waited and was granted",
}
# The wait percentiles are point-in-time values; every other field only ever grows.
_MICROSECOND_GAUGES = ("wait_p50_us", "wait_p99_us", "wait_max_us")


class StatsMetric(NamedTuple):
    field: str  # the key in Client.stats()
    name: str  # without the unit suffix: "wait_p99" for "wait_p99_us"
    is_gauge: bool
    unit: str  # "s" for the waits (in seconds, the metrics' base unit), else "1"
    help: str

    def value(self, stats: dict[str, int]) -> float:
        raw = stats[self.field]
        return raw / 1e6 if self.unit == "s" else raw


def stats_metric(field: str) -> StatsMetric:
    """The metric for a stats field; a field added later is exported as a counter."""
    if field in _MICROSECOND_GAUGES:
        return StatsMetric(field, field[: -len("_us")], True, "s", _HELP[field] + ", in seconds")
    return StatsMetric(field, field, False, "1", _HELP.get(field, f"dlock counter {field}"))


def current_metrics(client: Client) -> Iterator[Tuple[StatsMetric, float]]:
    """Each field of the client's stats() with its metric; nothing once the client is closed
    (a closed client counts nothing more, and a scrape must not fail for it)."""
    try:
        stats = client.stats()
    except ClientClosedError:
        return
    for field in stats:
        metric = stats_metric(field)
        yield metric, metric.value(stats)
