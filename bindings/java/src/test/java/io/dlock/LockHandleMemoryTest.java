package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** A DLock nothing refers to and nobody holds gives its native handle back; a held one never does. */
class LockHandleMemoryTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private static DLockClient client;

  @BeforeAll
  static void connect() {
    client = DLockClient.connect(redis.url());
  }

  @AfterAll
  static void disconnect() {
    client.close();
  }

  private static void lockNames(String prefix, int from, int to) {
    for (int i = from; i < to; i++) {
      DLock lock = client.getLock(prefix + i);
      lock.lock();
      lock.unlock();
    }
  }

  private static long usedHeapAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
    }
    return used;
  }

  /** Collects until {@code done} holds (the Cleaner frees handles on its own thread), at most 10 s. */
  private static boolean collectUntil(BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      System.gc();
      Thread.sleep(20);
    }
    return true;
  }

  @Test
  void lockingManyDistinctNamesKeepsMemoryFlat() throws InterruptedException {
    lockNames("orders:", 0, 20_000);
    // Measured once the Cleaner has freed what it will: its thread, not the loop, sets the pace.
    assertTrue(collectUntil(() -> client.liveLockHandles() == 0),
        client.liveLockHandles() + " native handles still live after 20,000 names");
    long at20k = usedHeapAfterGc();
    lockNames("orders:", 20_000, 100_000);
    assertTrue(collectUntil(() -> client.liveLockHandles() == 0),
        client.liveLockHandles() + " native handles still live after 100,000 names");
    long at100k = usedHeapAfterGc();
    // Before handles were freed the heap grew by 17.5 MB over these 80,000 names.
    assertTrue(at100k - at20k < 4_000_000,
        "used heap after GC grew by " + (at100k - at20k) + " bytes from 20,000 to 100,000 names");
  }

  @Test
  void aHeldLockIsNeverFreedUnderItsHolder() throws InterruptedException {
    // The DLock is dropped at once; were it collected, freeing its handle would release the hold.
    client.getLock("kept-held").lock();
    lockNames("kept-churn:", 0, 2_000);
    assertTrue(collectUntil(() -> client.liveLockHandles() == 1),
        "every other handle is freed: " + client.liveLockHandles() + " live");
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      assertTrue(jedis.exists("kept-held"), "the hold survived its DLock being dropped");
    }
    DLock again = client.getLock("kept-held");
    assertTrue(again.isHeldByCurrentThread());
    assertEquals(1, again.getHoldCount());
    again.unlock();
    assertFalse(again.isHeldByCurrentThread());
  }

  @Test
  void oneNameIsOneLockForReentrancy() {
    DLock first = client.getLock("one-name");
    assertSame(first, client.getLock("one-name"));
    first.lock();
    client.getLock("one-name").lock();
    assertEquals(2, first.getHoldCount());
    client.getLock("one-name").unlock();
    first.unlock();
    assertFalse(first.isHeldByCurrentThread());
  }
}
