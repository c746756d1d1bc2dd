package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** lockAsync, tryLockAsync and unlockAsync: outcomes, owners, cancellation, where stages run. */
class AsyncLockTest extends PerTestLock {
  /** Owner ids of tasks that are not threads of this JVM. */
  private static final long TASK = 1_000_001;
  private static final long OTHER_TASK = 1_000_002;

  @Test
  void lockAsyncAndUnlockAsyncTakeAndFreeTheLockForTheOwnerGiven() throws Exception {
    assertNull(lock.lockAsync(TASK).get(5, TimeUnit.SECONDS));
    assertTrue(lock.isHeldByThread(TASK));
    assertFalse(lock.isHeldByCurrentThread());
    assertTrue(jedis.exists(name));

    assertNull(lock.unlockAsync(TASK).get(5, TimeUnit.SECONDS));
    assertFalse(lock.isHeldByThread(TASK));
    assertFalse(jedis.exists(name));
  }

  @Test
  void lockAsyncWithoutAnOwnerActsForTheCallingThread() throws Exception {
    lock.lockAsync().get(5, TimeUnit.SECONDS);
    assertTrue(lock.isHeldByCurrentThread());
    lock.unlock();
    assertFalse(jedis.exists(name));
  }

  @Test
  void tryLockAsyncCompletesWithTrueWhenFreeAndFalseWhenTheWaitRunsOut() throws Exception {
    assertTrue(lock.tryLockAsync(1, -1, TimeUnit.SECONDS, TASK).get(5, TimeUnit.SECONDS));
    long start = System.nanoTime();
    assertFalse(lock.tryLockAsync(200, -1, TimeUnit.MILLISECONDS, OTHER_TASK).get(5, TimeUnit.SECONDS));
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200));
    assertFalse(lock.tryLockAsync(OTHER_TASK).get(5, TimeUnit.SECONDS));
    assertTrue(lock.isHeldByThread(TASK));
  }

  @Test
  void aWaitingFutureCompletesWhenTheHolderUnlocks() throws Exception {
    lock.lock();
    CompletableFuture<Boolean> waiting = lock.tryLockAsync(10, 5, TimeUnit.SECONDS, TASK);
    Thread.sleep(100);
    assertFalse(waiting.isDone());
    lock.unlock();
    assertTrue(waiting.get(5, TimeUnit.SECONDS));
    long ttl = jedis.pttl(name);
    assertTrue(ttl > 0 && ttl <= 5000, "lease " + ttl);
  }

  @Test
  void unlockAsyncByANonOwnerFailsAsUnlockDoes() throws Exception {
    lock.lock();
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> lock.unlockAsync(TASK).get(5, TimeUnit.SECONDS));
    assertInstanceOf(IllegalMonitorStateException.class, failed.getCause());
    assertTrue(lock.isHeldByCurrentThread());
  }

  @Test
  void cancellingAWaitingFutureLeavesNoHold() throws Exception {
    lock.lock();
    CompletableFuture<Void> waiting = lock.lockAsync(TASK);
    Thread.sleep(100);
    assertTrue(waiting.cancel(true));
    assertThrows(CancellationException.class, waiting::join);
    lock.unlock();
    Thread.sleep(200);
    assertFalse(lock.isHeldByThread(TASK));
    assertFalse(jedis.exists(name), "a cancelled wait took the lock");
  }

  @Test
  void grantsThatRaceTheirCancellationAreReleased() throws Exception {
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    int cancelled = 0;
    for (int i = 0; i < 50; i++) {
      CompletableFuture<Void> future = lock.lockAsync(TASK);
      futures.add(future);
      cancelled += future.cancel(true) ? 1 : 0;
    }
    int granted = 0;
    for (CompletableFuture<Void> future : futures) {
      if (!future.isCancelled()) {
        future.get(5, TimeUnit.SECONDS);
        granted++;
      }
    }
    assertEquals(50, cancelled + granted);
    for (int i = 0; i < granted; i++) {
      lock.unlockAsync(TASK).get(5, TimeUnit.SECONDS);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (jedis.exists(name) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertFalse(jedis.exists(name), "a grant that raced its cancellation was kept");
    assertFalse(lock.isHeldByThread(TASK));
  }

  /** Stages attached while the wait is pending run where the future completes. */
  @Test
  void stagesRunOnTheCallbackExecutorNeverOnDlocksThread() throws Exception {
    ExecutorService callbacks = Executors.newSingleThreadExecutor(task -> new Thread(task, "test-callbacks"));
    try (DLockClient withExecutor = DLockClient.builder().url(redis.url()).callbackExecutor(callbacks).build()) {
      DLock mine = withExecutor.getLock(name);
      mine.lock();
      CompletableFuture<Void> waiting = mine.lockAsync(TASK);
      CompletableFuture<String> plain = waiting.thenApply(held -> Thread.currentThread().getName());
      CompletableFuture<String> async = waiting.thenApplyAsync(held -> Thread.currentThread().getName());
      Thread.sleep(100);
      mine.unlock();
      assertEquals("test-callbacks", plain.get(5, TimeUnit.SECONDS));
      assertEquals("test-callbacks", async.get(5, TimeUnit.SECONDS));
      mine.unlockAsync(TASK).get(5, TimeUnit.SECONDS);
    } finally {
      callbacks.shutdown();
    }
    lock.lock();
    CompletableFuture<String> defaultPool = lock.lockAsync(TASK)
        .thenApply(held -> Thread.currentThread().getName());
    Thread.sleep(100);
    lock.unlock();
    String thread = defaultPool.get(5, TimeUnit.SECONDS);
    assertTrue(thread.startsWith("ForkJoinPool.commonPool-worker"), thread);
  }

  @Test
  void closingTheClientFailsAPendingFuture() throws Exception {
    lock.lock();
    CompletableFuture<Void> waiting = lock.lockAsync(TASK);
    Thread.sleep(100);
    client.close();
    ExecutionException failed = assertThrows(ExecutionException.class,
        () -> waiting.get(5, TimeUnit.SECONDS));
    assertInstanceOf(IllegalStateException.class, failed.getCause());
    assertThrows(IllegalStateException.class, () -> lock.lockAsync(TASK));
  }
}
