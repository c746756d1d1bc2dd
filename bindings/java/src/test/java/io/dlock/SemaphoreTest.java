package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DSemaphore, DPermitExpirableSemaphore and DCountDownLatch: interrupts, close, bad input. */
class SemaphoreTest {
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

  /** Interrupts the thread blocked in {@code wait} and checks it threw InterruptedException promptly. */
  private static void assertInterruptible(Threads.Blocking wait) throws Exception {
    AtomicReference<Thread> waiter = new AtomicReference<>();
    CompletableFuture<Long> interruptedAfter = Threads.start(() -> {
      waiter.set(Thread.currentThread());
      try {
        wait.run();
      } catch (InterruptedException expected) {
        return System.nanoTime();
      }
      return -1L;
    });
    Thread.sleep(300);
    long sent = System.nanoTime();
    waiter.get().interrupt();
    long returned = interruptedAfter.get(5, TimeUnit.SECONDS);
    assertTrue(returned > 0, "the wait ended without InterruptedException");
    assertTrue((returned - sent) / 1_000_000 < 100, "the interrupt took too long");
  }

  @Test
  void waitsAreInterruptible() throws Exception {
    DSemaphore semaphore = client.getSemaphore("j-sem-interrupt");
    assertInterruptible(() -> semaphore.acquire());
    DPermitExpirableSemaphore permits = client.getPermitExpirableSemaphore("j-permits-interrupt");
    assertInterruptible(() -> permits.acquire());
    DCountDownLatch latch = client.getCountDownLatch("j-latch-interrupt");
    latch.trySetCount(1);
    assertInterruptible(() -> latch.await());
    assertEquals(0, semaphore.availablePermits(), "an interrupted wait took a permit");
  }

  @Test
  void semaphoreAcquiresAndReleases() throws Exception {
    DSemaphore semaphore = client.getSemaphore("j-sem");
    assertSame(semaphore, client.getSemaphore("j-sem"));
    assertTrue(semaphore.trySetPermits(2));
    semaphore.acquire(2);
    assertFalse(semaphore.tryAcquire(100, TimeUnit.MILLISECONDS));
    semaphore.release();
    assertTrue(semaphore.tryAcquire());
    semaphore.release(2);
    assertEquals(2, semaphore.availablePermits());
  }

  @Test
  void permitsHaveIds() throws Exception {
    DPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore("j-permits");
    assertTrue(semaphore.trySetPermits(1));
    String id = semaphore.acquire(5, TimeUnit.SECONDS);
    assertEquals(32, id.length());
    assertNull(semaphore.tryAcquire(50, TimeUnit.MILLISECONDS));
    semaphore.release(id);
    assertThrows(IllegalArgumentException.class, () -> semaphore.release(id));
    assertFalse(semaphore.tryRelease(id));
    assertNotNull(semaphore.tryAcquire(0, -1, TimeUnit.MILLISECONDS));
  }

  @Test
  void badInputIsRefused() {
    DLockException badName = assertThrows(DLockException.class, () -> client.getSemaphore(""));
    assertEquals(DLockStatus.INVALID, badName.getStatus());
    assertThrows(NullPointerException.class, () -> client.getCountDownLatch(null));
    DSemaphore semaphore = client.getSemaphore("j-sem-bad");
    DLockException badPermits = assertThrows(DLockException.class, () -> semaphore.acquire(0));
    assertTrue(badPermits.getMessage().contains("permits"), badPermits.getMessage());
    assertThrows(DLockException.class, () -> semaphore.release(-1));
    DPermitExpirableSemaphore permits = client.getPermitExpirableSemaphore("j-permits-bad");
    assertThrows(IllegalArgumentException.class, () -> permits.release(null));
    DLockException badId = assertThrows(DLockException.class, () -> permits.release("xyz"));
    assertTrue(badId.getMessage().contains("permit_id"), badId.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> permits.tryAcquire(0, 0, TimeUnit.MILLISECONDS));
    DLockException badCount =
        assertThrows(DLockException.class, () -> client.getCountDownLatch("j-latch-bad").trySetCount(0));
    assertTrue(badCount.getMessage().contains("count"), badCount.getMessage());
  }

  @Test
  void closingTheClientWakesWaiters() throws Exception {
    DLockClient own = DLockClient.connect(redis.url());
    DCountDownLatch latch = own.getCountDownLatch("j-latch-close");
    latch.trySetCount(1);
    CompletableFuture<Boolean> waiter = Threads.start(() -> latch.await(20, TimeUnit.SECONDS));
    Thread.sleep(300);
    own.close();
    ExecutionException thrown = assertThrows(ExecutionException.class, () -> waiter.get(5, TimeUnit.SECONDS));
    assertTrue(thrown.getCause() instanceof IllegalStateException, thrown.getCause().toString());
    assertThrows(IllegalStateException.class, latch::countDown);
  }
}
