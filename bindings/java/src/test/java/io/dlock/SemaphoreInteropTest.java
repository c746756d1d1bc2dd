package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RSemaphore;

/** dlock's semaphores and latch and the real Redisson's on the same names. */
class SemaphoreInteropTest extends InteropFixture {
  /** Runs {@code wait} on another thread; returns how long it took, in ms. */
  private static CompletableFuture<Long> timed(Callable<?> wait) {
    return Threads.start(() -> {
      long start = System.nanoTime();
      assertNotNull(wait.call());
      return (System.nanoTime() - start) / 1_000_000;
    });
  }

  @Test
  void semaphorePermitsAreSharedBothWays() throws Exception {
    RSemaphore theirs = redisson.getSemaphore("interop-sem-share");
    DSemaphore ours = dlock.getSemaphore("interop-sem-share");
    assertTrue(theirs.trySetPermits(3));
    assertFalse(ours.trySetPermits(7));
    assertEquals(3, ours.availablePermits());
    assertTrue(ours.tryAcquire(2, 0, TimeUnit.MILLISECONDS));
    assertEquals(1, theirs.availablePermits());
    assertTrue(theirs.tryAcquire());
    assertFalse(ours.tryAcquire());
    theirs.release(3);
    assertEquals(3, ours.availablePermits());
  }

  @Test
  void aRedissonReleaseWakesADlockWaiterAndBack() throws Exception {
    DSemaphore ours = dlock.getSemaphore("interop-sem-wake");
    RSemaphore theirs = redisson.getSemaphore("interop-sem-wake");
    ours.trySetPermits(0);
    CompletableFuture<Long> dlockWaiter = timed(() -> ours.tryAcquire(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    theirs.release();
    assertTrue(dlockWaiter.get(10, TimeUnit.SECONDS) < PROMPT_MS, "the dlock waiter slept on");
    CompletableFuture<Long> redissonWaiter = timed(() -> theirs.tryAcquire(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    ours.release();
    assertTrue(redissonWaiter.get(10, TimeUnit.SECONDS) < PROMPT_MS, "the Redisson waiter slept on");
    assertEquals(0, ours.availablePermits());
  }

  @Test
  void leasedPermitsAreSharedAndReleasedByIdBothWays() throws Exception {
    RPermitExpirableSemaphore theirs = redisson.getPermitExpirableSemaphore("interop-permits");
    DPermitExpirableSemaphore ours = dlock.getPermitExpirableSemaphore("interop-permits");
    assertTrue(ours.trySetPermits(2));
    String mine = ours.acquire();
    String redissons = theirs.acquire(10, TimeUnit.SECONDS);
    assertEquals(0, theirs.availablePermits());
    assertEquals(0, ours.availablePermits());
    assertNull(ours.tryAcquire());
    assertNull(theirs.tryAcquire());
    // Each side releases the other's permit by its id.
    theirs.release(mine);
    assertTrue(ours.tryRelease(redissons));
    assertEquals(2, theirs.availablePermits());
    assertFalse(ours.tryRelease(redissons));
    assertThrows(IllegalArgumentException.class, () -> ours.release(redissons));
    // dlock held `mine`, and someone else let it go: to dlock, a lost permit.
    assertThrows(LockLostException.class, () -> ours.release(mine));
  }

  @Test
  void aPermitReleaseWakesAWaiterOnTheOtherSide() throws Exception {
    RPermitExpirableSemaphore theirs = redisson.getPermitExpirableSemaphore("interop-permits-wake");
    DPermitExpirableSemaphore ours = dlock.getPermitExpirableSemaphore("interop-permits-wake");
    ours.trySetPermits(1);
    String redissons = theirs.acquire();
    long start = System.nanoTime();
    CompletableFuture<String> dlockWaiter = Threads.start(() -> ours.tryAcquire(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    theirs.release(redissons);
    String mine = dlockWaiter.get(10, TimeUnit.SECONDS);
    assertNotNull(mine);
    assertTrue((System.nanoTime() - start) / 1_000_000 < 300 + PROMPT_MS, "the dlock waiter slept on");

    CompletableFuture<Long> redissonWaiter =
        timed(() -> theirs.tryAcquire(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    ours.release(mine);
    assertTrue(redissonWaiter.get(10, TimeUnit.SECONDS) < PROMPT_MS, "the Redisson waiter slept on");
  }

  @Test
  void aDeadHoldersLeasedPermitReturnsOnEitherSide() throws Exception {
    RPermitExpirableSemaphore theirs = redisson.getPermitExpirableSemaphore("interop-permits-lease");
    DPermitExpirableSemaphore ours = dlock.getPermitExpirableSemaphore("interop-permits-lease");
    ours.trySetPermits(1);
    // A Redisson permit leased 300 ms and never released: dlock reclaims it.
    assertNotNull(theirs.tryAcquire(0, 300, TimeUnit.MILLISECONDS));
    String mine = ours.tryAcquire(5, 10, TimeUnit.SECONDS);
    assertNotNull(mine, "the expired Redisson permit never returned");
    // A dlock permit leased 300 ms: Redisson reclaims it, and dlock reports the loss.
    ours.release(mine);
    AtomicReference<String> lost = new AtomicReference<>();
    ours.setLostListener((name, id) -> lost.set(id));
    String leased = ours.tryAcquire(0, 300, TimeUnit.MILLISECONDS);
    assertNotNull(leased);
    assertNotNull(theirs.tryAcquire(5, TimeUnit.SECONDS), "the expired dlock permit never returned");
    assertThrows(LockLostException.class, () -> ours.release(leased));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (lost.get() == null && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(leased, lost.get(), "the lost-permit listener was not told");
    ours.setLostListener(null);
  }

  @Test
  void aRedissonCountDownOpensADlockWaitAndBack() throws Exception {
    RCountDownLatch theirs = redisson.getCountDownLatch("interop-latch");
    DCountDownLatch ours = dlock.getCountDownLatch("interop-latch");
    assertTrue(ours.trySetCount(2));
    assertFalse(theirs.trySetCount(5));
    assertEquals(2, theirs.getCount());
    theirs.countDown();
    assertEquals(1, ours.getCount());
    CompletableFuture<Long> dlockWaiter = timed(() -> ours.await(20, TimeUnit.SECONDS));
    CompletableFuture<Long> redissonWaiter = timed(() -> theirs.await(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    theirs.countDown();
    assertTrue(dlockWaiter.get(10, TimeUnit.SECONDS) < PROMPT_MS, "the dlock waiter slept on");
    assertTrue(redissonWaiter.get(10, TimeUnit.SECONDS) < PROMPT_MS, "the Redisson waiter slept on");
    assertEquals(0, ours.getCount());

    assertTrue(theirs.trySetCount(1));
    CompletableFuture<Long> redissonAgain = timed(() -> theirs.await(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    ours.countDown();
    assertTrue(redissonAgain.get(10, TimeUnit.SECONDS) < PROMPT_MS, "the Redisson waiter slept on");
  }
}
