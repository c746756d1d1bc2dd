package io.dlock.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DLock;
import io.dlock.DLockClient;
import io.dlock.DLockStats;
import io.dlock.RedisServer;
import io.dlock.Threads;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DLockMetricsTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @Test
  void theMetersShowTheClientsCounters() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (DLockClient client = DLockClient.connect(redis.url())) {
      new DLockMetrics(client, Tags.of("client", "jobs")).bindTo(registry);
      DLock lock = client.getLock("metered");
      for (int i = 0; i < 3; i++) {
        lock.lock();
        lock.lock();
        lock.unlock();
        lock.unlock();
      }
      waitOnce(client, lock);

      DLockStats stats = client.getStats();
      assertEquals(5, stats.getGrants());
      assertEquals(3, stats.getReentries());
      assertEquals(1, stats.getWaits());
      assertEquals(stats.getGrants(), counter(registry, "dlock.grants"));
      assertEquals(stats.getReentries(), counter(registry, "dlock.reentries"));
      assertEquals(stats.getWaits(), counter(registry, "dlock.waits"));
      assertEquals(stats.getHandoffs(), counter(registry, "dlock.handoffs"));
      assertEquals(stats.getLocksLost(), counter(registry, "dlock.locks.lost"));
      assertEquals(stats.getExpiries(), counter(registry, "dlock.expiries"));
      assertEquals(stats.getWaitMaxMicros(), waitGauge(registry, "dlock.wait.max"), 1.0);
      assertEquals(stats.getWaitP50Micros(), waitGauge(registry, "dlock.wait.p50"), 1.0);
      assertTrue(stats.getWaitMaxMicros() > 0);
      Set<String> names = meterNames(registry);
      assertEquals(14, names.size(), "one meter per stats field: " + names);
    }
    assertTrue(Double.isNaN(counter(registry, "dlock.grants")), "a closed client's meter read");
  }

  /** Holds the lock on one thread while another waits for it: one wait, two grants. */
  private static void waitOnce(DLockClient client, DLock lock) throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    var holder = Threads.start(() -> {
      lock.lock();
      held.countDown();
      release.await(10, TimeUnit.SECONDS);
      lock.unlock();
      return null;
    });
    assertTrue(held.await(10, TimeUnit.SECONDS));
    var waiter = Threads.start(() -> {
      boolean granted = lock.tryLock(10, TimeUnit.SECONDS);
      if (granted) {
        lock.unlock();
      }
      return granted;
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (client.getStats().getWaits() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    release.countDown();
    holder.get(10, TimeUnit.SECONDS);
    assertTrue(waiter.get(10, TimeUnit.SECONDS));
  }

  private static double counter(SimpleMeterRegistry registry, String name) {
    FunctionCounter counter = registry.get(name).tag("client", "jobs").functionCounter();
    return counter.count();
  }

  private static double waitGauge(SimpleMeterRegistry registry, String name) {
    TimeGauge gauge = registry.get(name).tag("client", "jobs").timeGauge();
    return gauge.value(TimeUnit.MICROSECONDS);
  }

  private static Set<String> meterNames(SimpleMeterRegistry registry) {
    return registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName)
        .collect(Collectors.toSet());
  }
}
