package io.dlock;

/**
 * A client's counters since it was opened, as {@link DLockClient#getStats()}
 * read them: a snapshot that does not change. Counting is always on and costs a
 * few atomic increments per operation. Wait times are of acquires that waited
 * and were granted, in microseconds, from log-scale buckets (within 25%).
 *
 * <p>The counters live in this process's memory: there is no way to read those
 * of another process.
 */
public final class DLockStats {
  private final long grants;
  private final long reentries;
  private final long waits;
  private final long handoffs;
  private final long renewals;
  private final long renewalRoundTrips;
  private final long locksLost;
  private final long reconnects;
  private final long transientRetries;
  private final long waitP50Micros;
  private final long waitP99Micros;
  private final long waitMaxMicros;
  private final long failovers;
  private final long expiries;

  DLockStats(NativeStats stats) {
    grants = stats.getGrants();
    reentries = stats.getReentries();
    waits = stats.getWaits();
    handoffs = stats.getHandoffs();
    renewals = stats.getRenewals();
    renewalRoundTrips = stats.getRenewal_round_trips();
    locksLost = stats.getLocks_lost();
    reconnects = stats.getReconnects();
    transientRetries = stats.getTransient_retries();
    waitP50Micros = stats.getWait_p50_us();
    waitP99Micros = stats.getWait_p99_us();
    waitMaxMicros = stats.getWait_max_us();
    failovers = stats.getFailovers();
    expiries = stats.getExpiries();
  }

  /** Holds granted by the server (re-entries not included). */
  public long getGrants() {
    return grants;
  }

  /** Acquires that re-entered a hold the owner already had (no round trip). */
  public long getReentries() {
    return reentries;
  }

  /** Acquires that found the lock taken and waited. */
  public long getWaits() {
    return waits;
  }

  /** Grants after waiting that a release message woke. */
  public long getHandoffs() {
    return handoffs;
  }

  /** Leases renewed by the watchdog, one per lock per renewal. */
  public long getRenewals() {
    return renewals;
  }

  /** The watchdog's renewal batches, one round trip each. */
  public long getRenewalRoundTrips() {
    return renewalRoundTrips;
  }

  /**
   * Holds found lost: taken from the holder (force-released, the key deleted)
   * or a watchdog lease that lapsed, whether a renewal, the deadline or a
   * release found it so. Fixed leases that ran out as asked are
   * {@link #getExpiries()}, not losses.
   */
  public long getLocksLost() {
    return locksLost;
  }

  /** Connections made again after one broke or could not be made. */
  public long getReconnects() {
    return reconnects;
  }

  /** Commands retried after a transient server state (LOADING, BUSY, MASTERDOWN...). */
  public long getTransientRetries() {
    return transientRetries;
  }

  /** Median wait before a grant, in microseconds (0 when none waited). */
  public long getWaitP50Micros() {
    return waitP50Micros;
  }

  /** 99th percentile of the waits before a grant, in microseconds. */
  public long getWaitP99Micros() {
    return waitP99Micros;
  }

  /** Longest wait before a grant, in microseconds. */
  public long getWaitMaxMicros() {
    return waitMaxMicros;
  }

  /** Sentinel: moves to a new master the client followed. */
  public long getFailovers() {
    return failovers;
  }

  /**
   * Fixed leases ({@code tryLock(wait, lease, unit)}) that ran out as asked
   * while still held: expiries, logged at INFO and thrown as
   * {@link LockExpiredException} by the release after them.
   */
  public long getExpiries() {
    return expiries;
  }

  @Override
  public String toString() {
    return "DLockStats{grants=" + grants + ", reentries=" + reentries + ", waits=" + waits
        + ", handoffs=" + handoffs + ", renewals=" + renewals + ", renewalRoundTrips="
        + renewalRoundTrips + ", locksLost=" + locksLost + ", reconnects=" + reconnects
        + ", transientRetries=" + transientRetries + ", waitP50Micros=" + waitP50Micros
        + ", waitP99Micros=" + waitP99Micros + ", waitMaxMicros=" + waitMaxMicros
        + ", failovers=" + failovers + ", expiries=" + expiries + "}";
  }
}
