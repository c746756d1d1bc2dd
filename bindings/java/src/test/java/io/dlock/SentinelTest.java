package io.dlock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Sentinel through DLockClient.connect: a lock held through a failover stays held. */
class SentinelTest {
  @RegisterExtension static final SentinelSet sentinels = new SentinelSet();

  @Test
  void aLockHeldThroughAFailoverStaysHeldAndTheClientFollows() throws Exception {
    String synced = sentinels.url().replace("#", "?sync_replicas=1&sync_timeout_ms=500#");
    try (DLockClient client = DLockClient.connect(synced);
        DLockClient rival = DLockClient.builder().url(sentinels.url())
            .syncReplicas(1).syncTimeout(Duration.ofMillis(500)).build()) {
      DLock lock = client.getLock("java-failover");
      lock.lock();
      int old = sentinels.masterPort();
      int moved = sentinels.failover();
      assertNotEquals(old, moved);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (client.getStats().getFailovers() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(client.getStats().getFailovers() >= 1, "the client followed the failover");
      try (Jedis master = sentinels.node(moved)) {
        assertTrue(master.exists("java-failover"), "the new master has the hold");
      }
      assertFalse(rival.getLock("java-failover").tryLock(), "no second holder");
      lock.unlock();  // on the new master
      DLock taken = rival.getLock("java-failover");
      assertTrue(taken.tryLock(15, TimeUnit.SECONDS));
      taken.unlock();
    }
  }
}
