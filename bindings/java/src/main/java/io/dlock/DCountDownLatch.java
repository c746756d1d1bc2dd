package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A count-down latch on Redis, in Redisson's RCountDownLatch layout: a
 * Redisson {@code RCountDownLatch} of the same name shares its count, and the
 * last count-down on either side wakes the waiters on both.
 *
 * <p>As {@link java.util.concurrent.CountDownLatch}, but set once with
 * {@link #trySetCount(long)}; waits throw {@link InterruptedException} when
 * the thread is interrupted and never poll. Obtain one from
 * {@link DLockClient#getCountDownLatch(String)}.
 *
 * <p>Waits park in Java on a virtual thread (it unmounts from its carrier),
 * and {@link #awaitAsync()} returns a {@link CompletableFuture} that no thread
 * waits for (stages run on the client's callback executor); cancelling it
 * cancels the wait.
 */
public final class DCountDownLatch {
  private final String name;
  private final NativeCountDownLatch handle;
  private final HandleGuard guard;
  private final Executor callbacks;

  DCountDownLatch(String name, NativeCountDownLatch handle, HandleGuard guard, Executor callbacks) {
    this.name = name;
    this.handle = handle;
    this.guard = guard;
    this.callbacks = callbacks;
  }

  public String getName() {
    return name;
  }

  /** Sets the count (> 0) when the latch does not exist; false when it did. */
  public boolean trySetCount(long count) {
    return guard.call(() -> handle.trySetCount(count));
  }

  /** Counts down by one; at zero every waiter wakes. */
  public void countDown() {
    guard.run(handle::countDown);
  }

  /** The count, 0 when the latch is open or was never set (one round trip). */
  public long getCount() {
    return guard.call(handle::getCount);
  }

  /**
   * Waits until the count is zero.
   *
   * @throws LatchLostException the count this wait saw vanished without a
   *     count-down to zero (a restart without persistence, a failover)
   */
  public void await() throws InterruptedException {
    open(DLock.WAIT_FOREVER);
  }

  /**
   * Waits at most {@code timeout} until the count is zero; false when it was
   * not. Throws {@link LatchLostException} as {@link #await()}.
   */
  public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
    return open(DLock.waitMillis(timeout, unit));
  }

  /**
   * {@link #await()} without blocking: completes once the count is zero, or
   * exceptionally with {@link LatchLostException} as {@link #await()} throws it.
   */
  public CompletableFuture<Void> awaitAsync() {
    return openAsync(DLock.WAIT_FOREVER, NativeWaits::grantedOrThrow);
  }

  /** {@link #await(long, TimeUnit)} without blocking: true open, false the wait ran out. */
  public CompletableFuture<Boolean> awaitAsync(long timeout, TimeUnit unit) {
    return openAsync(DLock.waitMillis(timeout, unit), NativeOutcome::acquiredOrThrow);
  }

  private boolean open(long waitMs) throws InterruptedException {
    try {
      return NativeWaits.interruptibly(cancel -> guard.call(() -> handle.awaitZero(waitMs, cancel)), opened -> opened, false,
          start(waitMs), NativeOutcome::acquiredOrThrow);
    } catch (LockLostException lost) {
      throw latchLost(lost);
    }
  }

  private <T> CompletableFuture<T> openAsync(long waitMs, Function<NativeOutcome, T> result) {
    return NativeWaits.future(callbacks, start(waitMs), outcome -> {
      try {
        return result.apply(outcome);
      } catch (LockLostException lost) {
        throw latchLost(lost);
      }
    }, opened -> { });
  }

  private Supplier<PendingAcquire> start(long waitMs) {
    return () -> PendingAcquire.start(
        (cancel, callback, call) -> guard.run(() -> handle.awaitZeroAsync(waitMs, cancel, callback, call)));
  }

  /** The core's E_LOST for a latch: its key vanished (dlock.h). */
  private static LatchLostException latchLost(LockLostException lost) {
    return new LatchLostException(lost.getMessage());
  }

  /** Frees the native handle (the client is closing). */
  void free() {
    handle.delete();
  }

  @Override
  public String toString() {
    return "DCountDownLatch[" + name + "]";
  }
}
