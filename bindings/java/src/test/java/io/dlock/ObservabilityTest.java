package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SPEC 11 in Java: the core's records reach System.Logger "io.dlock"; getStats() counts. */
class ObservabilityTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @RegisterExtension final LogCapture capture = new LogCapture();

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
      assertTrue(Threads.eventually(5, () -> client.getStats().getRenewals() >= 2));
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
      assertTrue(Threads.eventually(5, () -> client.getStats().getLocksLost() == 1));
      assertTrue(Threads.eventually(5,
          () -> capture.has(Level.WARNING, "'restarted-under-hold'", "lost after")),
          () -> "records: " + capture.messages());
      assertTrue(capture.has(Level.WARNING, "lost the connection to " + redis.url()));
      assertThrows(LockLostException.class, lock::unlock);
      assertTrue(client.getStats().getReconnects() >= 1);
    }
  }
}
