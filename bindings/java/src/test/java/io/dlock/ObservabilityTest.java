package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SPEC 11 in Java: the core's records reach System.Logger "io.dlock"; getStats() counts. */
class ObservabilityTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  /** Captures what java.util.logging (System.Logger's default backend) gets for "io.dlock". */
  private static final class Capture extends Handler {
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    boolean has(Level level, String... parts) {
      return records.stream().anyMatch(r -> r.getLevel().equals(level)
          && List.of(parts).stream().allMatch(part -> r.getMessage().contains(part)));
    }
  }

  private final Logger julLogger = Logger.getLogger(LogBridge.LOGGER_NAME);
  private final Capture capture = new Capture();
  private Level previousLevel;

  @BeforeEach
  void captureLogs() {
    previousLevel = julLogger.getLevel();
    julLogger.setLevel(Level.ALL);
    julLogger.addHandler(capture);
  }

  @AfterEach
  void stopCapturing() {
    julLogger.removeHandler(capture);
    julLogger.setLevel(previousLevel);
  }

  private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  @Test
  void statsCountGrantsReentriesWaitsAndHandoffs() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url());
        DLockClient other = DLockClient.connect(redis.url())) {
      DLock lock = client.getLock("stats-counted");
      for (int i = 0; i < 3; i++) {
        lock.lock();
        lock.lock();
        lock.unlock();
        lock.unlock();
      }
      DLockStats stats = client.getStats();
      assertEquals(3, stats.getGrants());
      assertEquals(3, stats.getReentries());
      assertEquals(0, stats.getWaits());

      DLock held = other.getLock("stats-counted");
      held.lock();
      long started = System.nanoTime();
      CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
        lock.lock();
        lock.unlock();
      });
      Thread.sleep(300);
      held.unlock();
      waiter.get(5, TimeUnit.SECONDS);
      long measuredMicros = (System.nanoTime() - started) / 1000;
      stats = client.getStats();
      assertEquals(4, stats.getGrants());
      assertEquals(1, stats.getWaits());
      assertEquals(1, stats.getHandoffs());
      assertTrue(stats.getWaitP50Micros() >= 250_000, stats.toString());
      assertTrue(stats.getWaitP50Micros() <= stats.getWaitP99Micros(), stats.toString());
      assertTrue(stats.getWaitP99Micros() <= stats.getWaitMaxMicros(), stats.toString());
      assertTrue(stats.getWaitMaxMicros() <= measuredMicros, stats.toString());
    }
  }

  @Test
  void statsCountRenewals() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url() + "?watchdog_timeout_ms=900")) {
      DLock lock = client.getLock("stats-renewed");
      lock.lock();
      assertTrue(eventually(() -> client.getStats().getRenewals() >= 2));
      assertTrue(client.getStats().getRenewalRoundTrips() >= 2);
      lock.unlock();
    }
  }

  @Test
  void statsOfAClosedClientThrow() {
    DLockClient client = DLockClient.connect(redis.url());
    client.close();
    assertThrows(IllegalStateException.class, client::getStats);
  }

  @Test
  void aRestartUnderAHeldLockLogsAWarning() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url() + "?watchdog_timeout_ms=1000")) {
      DLock lock = client.getLock("restarted-under-hold");
      lock.lock();
      redis.restart(); // no persistence: the lock is gone
      assertTrue(eventually(() -> client.getStats().getLocksLost() == 1));
      assertTrue(eventually(() -> capture.has(Level.WARNING, "'restarted-under-hold'", "lost after")),
          () -> "records: " + capture.records.stream().map(LogRecord::getMessage).toList());
      assertTrue(capture.has(Level.WARNING, "lost the connection to " + redis.url()));
      assertThrows(LockLostException.class, lock::unlock);
      assertTrue(client.getStats().getReconnects() >= 1);
    }
  }
}
