"""dlock.prometheus: a real CollectorRegistry scrapes what Client.stats() says."""

from __future__ import annotations

import pytest

import dlock
from redis_server import RedisServer
from waiting_grant import grant_after_a_wait

prometheus_client = pytest.importorskip(
    "prometheus_client", reason="prometheus-client is not installed (pip install '.[prometheus]')"
)
from dlock.prometheus import DLockCollector  # noqa: E402


def _samples(registry: "prometheus_client.CollectorRegistry") -> dict[str, float]:
    return {
        sample.name: sample.value
        for family in registry.collect()
        for sample in family.samples
        if not sample.name.endswith("_created")
    }


def test_collected_samples_equal_stats(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    registry = prometheus_client.CollectorRegistry()
    registry.register(DLockCollector(client))
    lock = client.lock(name)
    for _ in range(3):
        with lock:
            with lock:
                pass
    grant_after_a_wait(client, other_client, name)

    samples = _samples(registry)
    stats = client.stats()
    assert samples["dlock_grants_total"] == 4
    assert samples["dlock_reentries_total"] == 3
    assert samples["dlock_wait_max_seconds"] > 0
    expected = {
        f"dlock_{field[:-3]}_seconds" if field.startswith("wait_") else f"dlock_{field}_total":
        value / 1e6 if field.startswith("wait_") else value
        for field, value in stats.items()
    }
    assert samples == expected
    # Counters are typed as counters, the waits as gauges.
    types = {family.name: family.type for family in registry.collect()}
    assert types["dlock_grants"] == "counter"
    assert types["dlock_wait_p99_seconds"] == "gauge"


def test_labels_tell_clients_apart(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    registry = prometheus_client.CollectorRegistry()
    registry.register(DLockCollector(client, labels={"client": "a"}))
    registry.register(DLockCollector(other_client, labels={"client": "b"}))
    with client.lock(name):
        pass
    assert registry.get_sample_value("dlock_grants_total", {"client": "a"}) == 1
    assert registry.get_sample_value("dlock_grants_total", {"client": "b"}) == 0


def test_a_closed_client_is_scraped_as_nothing(redis_server: RedisServer) -> None:
    closed = dlock.Client(redis_server.url)
    registry = prometheus_client.CollectorRegistry()
    registry.register(DLockCollector(closed))
    closed.close()
    assert _samples(registry) == {}


def test_refuses_what_is_not_a_client() -> None:
    with pytest.raises(TypeError, match="client must be a dlock.Client"):
        DLockCollector("redis://127.0.0.1:6379")  # type: ignore[arg-type]
