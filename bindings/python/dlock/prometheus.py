"""A prometheus_client collector over Client.stats(): ``pip install dlock-redis[prometheus]``.

    from prometheus_client import REGISTRY
    REGISTRY.register(dlock.prometheus.DLockCollector(client))

Each stats field is one metric named ``dlock_<field>``: counters (``dlock_grants_total``,
``dlock_locks_lost_total``, ...) and, for the waits, gauges in seconds
(``dlock_wait_p99_seconds``). A client has no name of its own, so there are no labels unless
given: register one collector per client, with ``labels`` telling them apart if there are
several.
"""

from __future__ import annotations

from typing import Iterator, Mapping, Optional

from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from dlock.arguments import require_str
from dlock.client import Client
from dlock.stats_metrics import current_metrics


class DLockCollector(Collector):
    """Reads ``client.stats()`` at each scrape (no round trip to Redis); ``labels`` are
    constant labels put on every sample, e.g. ``{"client": "orders"}``."""

    def __init__(self, client: Client, labels: Optional[Mapping[str, str]] = None) -> None:
        if not isinstance(client, Client):
            raise TypeError(f"client must be a dlock.Client, not {type(client).__name__}")
        self._client = client
        self._labels = {
            require_str(key, "labels"): require_str(value, "labels")
            for key, value in (labels or {}).items()
        }

    def collect(self) -> Iterator[Metric]:
        label_names = list(self._labels)
        label_values = list(self._labels.values())
        for metric, value in current_metrics(self._client):
            family: CounterMetricFamily | GaugeMetricFamily
            if metric.is_gauge:
                family = GaugeMetricFamily(
                    f"dlock_{metric.name}_seconds", metric.help, labels=label_names
                )
            else:
                # The family adds the "_total" suffix to the sample's name.
                family = CounterMetricFamily(
                    f"dlock_{metric.name}", metric.help, labels=label_names
                )
            family.add_metric(label_values, value)
            yield family
