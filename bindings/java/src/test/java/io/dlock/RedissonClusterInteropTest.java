package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.SectionChecker.Section;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * dlock and the real Redisson in {@code useClusterServers()} mode guarding the same names on a
 * Redis Cluster, one name per master. Redisson's default sharded subscription mode (AUTO) uses
 * SSUBSCRIBE and SPUBLISH on Redis 7, so each side's unlock must reach the other's sharded
 * subscribers on the master serving the name.
 */
class RedissonClusterInteropTest {
  @RegisterExtension static final RedisCluster cluster = RedisCluster.SHARED;

  private static final int THREADS_PER_SIDE = 2;
  private static final int CYCLES = 15;

  private static RedissonClient redisson;
  private static DLockClient dlock;

  @BeforeAll
  static void connect() {
    redisson = cluster.redisson();
    dlock = DLockClient.connect(cluster.url());
  }

  @AfterAll
  static void disconnect() {
    dlock.close();
    redisson.shutdown();
  }

  @Test
  void dlockAndRedissonSectionsNeverOverlapAndShareOneTokenSequence() throws Exception {
    for (String name : cluster.namesOnEachMaster("java-cluster-interop-mix")) {
      List<Section> sections = Collections.synchronizedList(new ArrayList<>());
      List<CompletableFuture<Void>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS_PER_SIDE; t++) {
        DLock lock = dlock.getLock(name);
        RFencedLock fenced = redisson.getFencedLock(name);
        String dlockHolder = "dlock/" + t;
        String redissonHolder = "redisson/" + t;
        workers.add(Threads.start(() -> {
          for (int cycle = 0; cycle < CYCLES; cycle++) {
            try (LockHold hold = lock.acquire()) {
              sections.add(section(dlockHolder, hold.fencingToken()));
            }
          }
          return null;
        }));
        workers.add(Threads.start(() -> {
          for (int cycle = 0; cycle < CYCLES; cycle++) {
            long token = fenced.lockAndGetToken();
            try {
              sections.add(section(redissonHolder, token));
            } finally {
              fenced.unlock();
            }
          }
          return null;
        }));
      }
      for (CompletableFuture<Void> worker : workers) {
        worker.get(2, TimeUnit.MINUTES);
      }
      assertEquals(List.of(), SectionChecker.violations(sections), name);
      assertEquals(2 * THREADS_PER_SIDE * CYCLES, sections.size());
      assertFalse(cluster.exists(name), name + " is free at the end");
    }
  }

  /** A critical section of a few hundred microseconds, timed on the monotonic clock. */
  private static Section section(String holder, long token) throws InterruptedException {
    long start = System.nanoTime();
    Thread.sleep(0, ThreadLocalRandom.current().nextInt(500_000));
    return new Section(holder, token, start, System.nanoTime());
  }

  @Test
  void holdsExcludeEachOtherBothWaysOnEveryMaster() throws Exception {
    for (String name : cluster.namesOnEachMaster("java-cluster-interop-holds")) {
      RLock rlock = redisson.getLock(name);
      DLock lock = dlock.getLock(name);
      rlock.lock();
      try {
        assertTrue(lock.isLocked());
        assertFalse(Threads.onOtherThread(() -> lock.tryLock(200, TimeUnit.MILLISECONDS)), name);
      } finally {
        rlock.unlock();
      }
      lock.lock();
      try {
        assertTrue(rlock.isLocked());
        assertFalse(Threads.onOtherThread(() -> rlock.tryLock(200, TimeUnit.MILLISECONDS)), name);
      } finally {
        lock.unlock();
      }
      assertFalse(cluster.exists(name));
    }
  }

  @Test
  void aRedissonUnlockWakesABlockedDlockWaiterOnEveryMaster() throws Exception {
    cluster.assertPromptWakeOnEachMaster("java-cluster-wake-d", redisson::getLock, dlock::getLock);
  }

  @Test
  void aDlockUnlockWakesABlockedRedissonWaiterOnEveryMaster() throws Exception {
    cluster.assertPromptWakeOnEachMaster("java-cluster-wake-r", dlock::getLock, redisson::getLock);
  }

  @Test
  void fencedLockTokensAndDlockTokensFormOneRisingSequenceOnEveryMaster() {
    for (String name : cluster.namesOnEachMaster("java-cluster-tokens")) {
      RFencedLock fenced = redisson.getFencedLock(name);
      DLock lock = dlock.getLock(name);
      long previous = 0;
      for (int round = 0; round < 5; round++) {
        long redissonToken = fenced.lockAndGetToken();
        fenced.unlock();
        assertTrue(redissonToken > previous, name + ": Redisson " + redissonToken + " after " + previous);
        lock.lock();
        long dlockToken = lock.getFencingToken();
        lock.unlock();
        assertTrue(dlockToken > redissonToken, name + ": dlock " + dlockToken + " after " + redissonToken);
        previous = dlockToken;
      }
    }
  }
}
