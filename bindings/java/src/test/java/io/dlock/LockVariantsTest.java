package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Redisson-style variants: leases on lockInterruptibly, other owners, timed holds, extend. */
class LockVariantsTest extends PerTestLock {
  @Test
  void lockInterruptiblyWithALeaseHoldsForThatLease() throws Exception {
    lock.lockInterruptibly(2, TimeUnit.SECONDS);
    long ttl = jedis.pttl(name);
    assertTrue(ttl > 0 && ttl <= 2000, "lease " + ttl);
    lock.unlock();
  }

  @Test
  void isHeldByThreadNamesTheOwner() throws Exception {
    lock.lock();
    long me = Thread.currentThread().getId();
    CompletableFuture<Boolean> seenElsewhere = new CompletableFuture<>();
    Thread other = new Thread(() -> seenElsewhere.complete(
        lock.isHeldByThread(me) && !lock.isHeldByCurrentThread()));
    other.start();
    assertTrue(seenElsewhere.get(5, TimeUnit.SECONDS));
    assertFalse(lock.isHeldByThread(other.getId()));
    lock.unlock();
    assertFalse(lock.isHeldByThread(me));
  }

  @Test
  void tryAcquireGivesAHoldOrNullWhenTheWaitRunsOut() throws Exception {
    try (LockHold hold = lock.tryAcquire(1, TimeUnit.SECONDS)) {
      assertNotNull(hold);
      assertEquals(lock.getFencingToken(), hold.fencingToken());
      CompletableFuture<LockHold> elsewhere = new CompletableFuture<>();
      new Thread(() -> {
        try {
          elsewhere.complete(lock.tryAcquire(100, 5000, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
          elsewhere.completeExceptionally(e);
        }
      }).start();
      assertNull(elsewhere.get(5, TimeUnit.SECONDS));
    }
    assertFalse(jedis.exists(name));
  }

  @Test
  void extendSetsTheRemainingLeaseOfAFixedLeaseHold() {
    lock.lock(1, TimeUnit.SECONDS);
    lock.extend(10, TimeUnit.SECONDS);
    long ttl = jedis.pttl(name);
    assertTrue(ttl > 5000 && ttl <= 10_000, "lease " + ttl);
    lock.unlock();
    assertThrows(IllegalMonitorStateException.class, () -> lock.extend(10, TimeUnit.SECONDS));
  }

  @Test
  void extendRefusesAHoldTheWatchdogKeepsAlive() {
    lock.lock();
    DLockException refused = assertThrows(DLockException.class, () -> lock.extend(10, TimeUnit.SECONDS));
    assertEquals(DLockStatus.INVALID, refused.getStatus());
    lock.unlock();
  }
}
