package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DLockClient on a Redis Cluster, reached from one seed node: locks on every master. */
class ClusterTest {
  @RegisterExtension static final RedisCluster cluster = RedisCluster.SHARED;

  /** A waiter woken by the release message acquires well within this; without it, ~30 s of lease. */
  private static final long PROMPT_MS = 2_000;

  private static DLockClient client;
  private static DLockClient rival;

  @BeforeAll
  static void connect() {
    client = DLockClient.connect(cluster.url(0));
    rival = DLockClient.connect(cluster.url(1));  // another seed node
  }

  @AfterAll
  static void disconnect() {
    client.close();
    rival.close();
  }

  @Test
  void aLockOnEachMasterExcludesAnotherClientUntilUnlocked() throws Exception {
    List<String> names = cluster.namesOnEachMaster("java-cluster-each");
    Set<Integer> masters = new HashSet<>();
    for (String name : names) {
      masters.add(cluster.masterOf(name));
      Lock lock = client.getLock(name);
      lock.lock();
      try {
        assertTrue(cluster.exists(name), name + " is on its master");
        Lock other = rival.getLock(name);
        assertFalse(Threads.onOtherThread(() -> other.tryLock()), "a second holder of " + name);
      } finally {
        lock.unlock();
      }
      assertFalse(cluster.exists(name), name + " is gone after unlock");
      Lock other = rival.getLock(name);
      assertTrue(Threads.onOtherThread(() -> {
        boolean taken = other.tryLock();
        other.unlock();
        return taken;
      }));
    }
    assertEquals(3, masters.size());
  }

  @Test
  void anUnlockWakesAWaiterOfAnotherClientOnEachMaster() throws Exception {
    for (String name : cluster.namesOnEachMaster("java-cluster-wake")) {
      Lock holder = client.getLock(name);
      holder.lock();
      Lock waiter = rival.getLock(name);
      CountDownLatch waiting = new CountDownLatch(1);
      CompletableFuture<Long> acquiredAt = Threads.start(() -> {
        waiting.countDown();
        assertTrue(waiter.tryLock(20, TimeUnit.SECONDS));
        long at = System.nanoTime();
        waiter.unlock();
        return at;
      });
      waiting.await();
      cluster.awaitShardSubscriber("redisson_lock__channel:{" + name + "}");
      assertFalse(acquiredAt.isDone(), "the waiter did not block");

      long releasedAt = System.nanoTime();
      holder.unlock();

      long wakeMs = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt);
      assertTrue(wakeMs < PROMPT_MS, name + ": the waiter woke " + wakeMs + " ms after the unlock");
    }
  }
}
