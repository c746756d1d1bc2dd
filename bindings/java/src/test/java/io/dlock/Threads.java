package io.dlock;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;

/**
 * Runs test steps on other threads, since lock ownership follows threads
 * (public for the integrations' tests).
 */
public final class Threads {
  private Threads() {}

  /**
   * Takes {@code lock} on another thread, waiting up to 5 s, and lets it go: the grant's
   * fencing token. Fails the test when it is not granted.
   */
  public static long grantedTokenOnOtherThread(DLock lock) throws Exception {
    return onOtherThread(() -> {
      if (!lock.tryLock(5, TimeUnit.SECONDS)) throw new AssertionError(lock + " was not granted within 5 s");
      try {
        return lock.getFencingToken();
      } finally {
        lock.unlock();
      }
    });
  }

  /** Starts {@code body} on a new thread; its result or exception lands in the future. */
  public static <T> CompletableFuture<T> start(Callable<T> body) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        result.complete(body.call());
      } catch (Throwable thrown) {
        result.completeExceptionally(thrown);
      }
    });
    thread.setDaemon(true);
    thread.start();
    return result;
  }

  /** A blocking step that may be interrupted. */
  @FunctionalInterface
  interface Blocking {
    void run() throws InterruptedException;
  }

  /**
   * Blocks {@code waiter} on another thread ({@code tryLock}, at most 20 s), runs
   * {@code untilWaiting} (which returns once the waiter waits), checks the waiter is not in,
   * runs {@code release}, and returns the milliseconds from the release to the waiter's grant.
   */
  static long msToGrantAfter(Lock waiter, Blocking untilWaiting, Runnable release) throws Exception {
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Long> acquiredAt = start(() -> {
      waiting.countDown();
      if (!waiter.tryLock(20, TimeUnit.SECONDS)) {
        throw new AssertionError("the waiter timed out");
      }
      long at = System.nanoTime();
      waiter.unlock();
      return at;
    });
    waiting.await();
    untilWaiting.run();
    if (acquiredAt.isDone()) {
      throw new AssertionError("the waiter entered while the lock was held");
    }
    long releasedAt = System.nanoTime();
    release.run();
    return TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt);
  }

  /** Runs {@code body} on another thread and returns its result. */
  public static <T> T onOtherThread(Callable<T> body)
      throws InterruptedException, ExecutionException, TimeoutException {
    return start(body).get(30, TimeUnit.SECONDS);
  }

  /** Whether {@code condition} comes true within {@code seconds} (checked every 10 ms). */
  static boolean eventually(int seconds, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }
}
