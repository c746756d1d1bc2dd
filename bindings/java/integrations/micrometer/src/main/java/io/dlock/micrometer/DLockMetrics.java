package io.dlock.micrometer;

import io.dlock.DLockClient;
import io.dlock.DLockStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters over a client's counters ({@link DLockClient#getStats()}),
 * one per field, read when the registry publishes: function counters
 * {@code dlock.grants}, {@code dlock.reentries}, {@code dlock.waits},
 * {@code dlock.handoffs}, {@code dlock.renewals}, {@code dlock.renewal.round.trips},
 * {@code dlock.locks.lost}, {@code dlock.reconnects}, {@code dlock.transient.retries},
 * {@code dlock.failovers}, {@code dlock.expiries}, and time gauges of the waits
 * before a grant {@code dlock.wait.p50}, {@code dlock.wait.p99}, {@code dlock.wait.max}.
 * Once the client is closed they read NaN.
 *
 * <p>Reading costs no round trip (the counters are in this process's memory).
 * The registry holds the client weakly, as Micrometer's binders do: keep a
 * reference to it while it is in use.
 */
public final class DLockMetrics implements MeterBinder {
  private final DLockClient client;
  private final Tags tags;

  /** Meters of {@code client}, without tags. */
  public DLockMetrics(DLockClient client) {
    this(client, Tags.empty());
  }

  /** Meters of {@code client} carrying {@code tags}, e.g. to tell several clients apart. */
  public DLockMetrics(DLockClient client, Iterable<Tag> tags) {
    this.client = Objects.requireNonNull(client, "client");
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    counter(registry, "dlock.grants", "Holds granted by the server (re-entries not included)",
        DLockStats::getGrants);
    counter(registry, "dlock.reentries", "Acquires that re-entered a hold the owner had",
        DLockStats::getReentries);
    counter(registry, "dlock.waits", "Acquires that found the lock taken and waited",
        DLockStats::getWaits);
    counter(registry, "dlock.handoffs", "Grants after waiting that a release message woke",
        DLockStats::getHandoffs);
    counter(registry, "dlock.renewals", "Leases renewed by the watchdog",
        DLockStats::getRenewals);
    counter(registry, "dlock.renewal.round.trips", "The watchdog's renewal batches",
        DLockStats::getRenewalRoundTrips);
    counter(registry, "dlock.locks.lost", "Holds found lost (taken, or a watchdog lease lapsed)",
        DLockStats::getLocksLost);
    counter(registry, "dlock.reconnects", "Connections made again after one broke",
        DLockStats::getReconnects);
    counter(registry, "dlock.transient.retries", "Commands retried after a transient server state",
        DLockStats::getTransientRetries);
    counter(registry, "dlock.failovers", "Sentinel: moves to a new master followed",
        DLockStats::getFailovers);
    counter(registry, "dlock.expiries", "Fixed leases that ran out as asked while held",
        DLockStats::getExpiries);
    waitGauge(registry, "dlock.wait.p50", "Median wait before a grant",
        DLockStats::getWaitP50Micros);
    waitGauge(registry, "dlock.wait.p99", "99th percentile of the waits before a grant",
        DLockStats::getWaitP99Micros);
    waitGauge(registry, "dlock.wait.max", "Longest wait before a grant",
        DLockStats::getWaitMaxMicros);
  }

  private void counter(MeterRegistry registry, String name, String description,
      ToLongFunction<DLockStats> field) {
    FunctionCounter.builder(name, client, open -> read(open, field))
        .description(description)
        .tags(tags)
        .register(registry);
  }

  private void waitGauge(MeterRegistry registry, String name, String description,
      ToLongFunction<DLockStats> micros) {
    TimeGauge.builder(name, client, TimeUnit.MICROSECONDS, open -> read(open, micros))
        .description(description)
        .tags(tags)
        .register(registry);
  }

  private static double read(DLockClient client, ToLongFunction<DLockStats> field) {
    try {
      return field.applyAsLong(client.getStats());
    } catch (IllegalStateException closed) {
      return Double.NaN;
    }
  }
}
