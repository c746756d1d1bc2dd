"""OpenTelemetry instruments over Client.stats(): ``pip install dlock-redis[otel]``.

    dlock.otel.instrument(client)  # the global MeterProvider, or meter_provider=...

Each stats field is one asynchronous instrument of the meter ``dlock``, named ``dlock.<field>``:
observable counters (``dlock.grants``, ``dlock.locks_lost``, ...) and, for the waits,
observable gauges in seconds (``dlock.wait_p99``, unit ``s``). They read ``client.stats()``
when the SDK collects (no round trip to Redis), and observe nothing once the client is closed.
"""

from __future__ import annotations

from typing import Callable, Iterable, List, Mapping, Optional

from opentelemetry.metrics import (
    CallbackOptions,
    Instrument,
    MeterProvider,
    Observation,
    get_meter,
)
from opentelemetry.util.types import AttributeValue

from dlock import __version__
from dlock.client import Client
from dlock.stats_metrics import StatsMetric, current_metrics, stats_metric


def instrument(
    client: Client,
    meter_provider: Optional[MeterProvider] = None,
    attributes: Optional[Mapping[str, AttributeValue]] = None,
) -> List[Instrument]:
    """Registers one observable instrument per stats field of ``client`` and returns them;
    ``attributes`` go on every observation (a client has no name of its own: give one
    to tell several clients apart)."""
    if not isinstance(client, Client):
        raise TypeError(f"client must be a dlock.Client, not {type(client).__name__}")
    meter = get_meter("dlock", __version__, meter_provider)
    instruments: List[Instrument] = []
    for field in client.stats():
        metric = stats_metric(field)
        create = (
            meter.create_observable_gauge if metric.is_gauge else meter.create_observable_counter
        )
        instruments.append(
            create(
                f"dlock.{metric.name}",
                callbacks=[_observer(client, metric, dict(attributes or {}))],
                unit=metric.unit,
                description=metric.help,
            )
        )
    return instruments


def _observer(
    client: Client, wanted: StatsMetric, attributes: Mapping[str, AttributeValue]
) -> Callable[[CallbackOptions], Iterable[Observation]]:
    def observe(options: CallbackOptions) -> Iterable[Observation]:
        return [
            Observation(value, attributes)
            for metric, value in current_metrics(client)
            if metric.field == wanted.field
        ]

    return observe
