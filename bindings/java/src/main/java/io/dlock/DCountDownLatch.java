package io.dlock;

import java.util.concurrent.TimeUnit;

/**
 * A count-down latch on Redis, in Redisson's RCountDownLatch layout: a
 * Redisson {@code RCountDownLatch} of the same name shares its count, and the
 * last count-down on either side wakes the waiters on both.
 *
 * <p>As {@link java.util.concurrent.CountDownLatch}, but set once with
 * {@link #trySetCount(long)}; waits throw {@link InterruptedException} when
 * the thread is interrupted and never poll. Obtain one from
 * {@link DLockClient#getCountDownLatch(String)}.
 */
public final class DCountDownLatch {
  private final String name;
  private final NativeCountDownLatch handle;
  private final HandleGuard guard;

  DCountDownLatch(String name, NativeCountDownLatch handle, HandleGuard guard) {
    this.name = name;
    this.handle = handle;
    this.guard = guard;
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

  private boolean open(long waitMs) throws InterruptedException {
    try {
      return guard.call(() -> InterruptibleWait.run(
          cancel -> handle.awaitZero(waitMs, cancel), opened -> opened, false));
    } catch (LockLostException lost) {
      // The core's E_LOST for a latch: its key vanished (dlock.h).
      throw new LatchLostException(lost.getMessage());
    }
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
