"""dlock.otel: the OpenTelemetry SDK's in-memory reader reads what Client.stats() says."""

from __future__ import annotations

import pytest

import dlock
from redis_server import RedisServer
from waiting_grant import grant_after_a_wait

pytest.importorskip(
    "opentelemetry.sdk.metrics", reason="opentelemetry-sdk is not installed (pip install '.[test]')"
)
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402

import dlock.otel  # noqa: E402


def _read(reader: InMemoryMetricReader) -> dict[str, tuple[float, dict[str, object]]]:
    data = reader.get_metrics_data()
    if data is None:  # nothing observed at all
        return {}
    return {
        metric.name: (point.value, dict(point.attributes or {}))
        for resource in data.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
        for point in metric.data.data_points
    }


def test_observed_values_equal_stats(
    client: dlock.Client, other_client: dlock.Client, name: str
) -> None:
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    dlock.otel.instrument(client, meter_provider=provider, attributes={"client": "orders"})
    lock = client.lock(name)
    for _ in range(2):
        with lock:
            pass
    grant_after_a_wait(client, other_client, name)

    observed = _read(reader)
    stats = client.stats()
    assert observed["dlock.grants"] == (3, {"client": "orders"})
    expected = {
        f"dlock.{field[:-3]}" if field.startswith("wait_") else f"dlock.{field}": (
            value / 1e6 if field.startswith("wait_") else value,
            {"client": "orders"},
        )
        for field, value in stats.items()
    }
    assert observed == expected
    provider.shutdown()


def test_a_closed_client_observes_nothing(redis_server: RedisServer) -> None:
    closed = dlock.Client(redis_server.url)
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    dlock.otel.instrument(closed, meter_provider=provider)
    closed.close()
    assert _read(reader) == {}
    provider.shutdown()
