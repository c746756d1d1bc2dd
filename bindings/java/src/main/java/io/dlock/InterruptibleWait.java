package io.dlock;

import java.io.IOException;
import java.nio.channels.spi.AbstractInterruptibleChannel;

/**
 * A blocking native acquire that {@link Thread#interrupt()} cuts short, for
 * platform threads (virtual threads park in Java instead: {@link PendingAcquire}).
 *
 * <p>A thread blocked in native code does not see Java interrupts, but an
 * interruptible channel does: between {@code begin()} and {@code end()},
 * {@code Thread.interrupt()} closes the channel the thread is blocked on. Closing
 * this one triggers the core's cancel token, so the acquire returns within a few
 * milliseconds, with no watcher thread and no polling.
 *
 * <p>An acquire that succeeds while an interrupt arrives keeps the lock and
 * leaves the thread's interrupt flag set, as if the interrupt came just after.
 */
final class InterruptibleWait extends AbstractInterruptibleChannel {
  private final NativeCancel cancel;

  private InterruptibleWait(NativeCancel cancel) {
    this.cancel = cancel;
  }

  /** A blocking native acquire that the cancel token cuts short. */
  @FunctionalInterface
  interface CancellableAcquire {
    /** true: held; false: the wait ran out. */
    boolean acquire(NativeCancel cancel);
  }

  /** true: held; false: the wait ran out. */
  static boolean acquire(NativeLock lock, long owner, long waitMs, long leaseMs)
      throws InterruptedException {
    return acquire(cancel -> lock.acquire(owner, waitMs, leaseMs, cancel));
  }

  /** true: held; false: the wait ran out. */
  static boolean acquire(CancellableAcquire acquire) throws InterruptedException {
    NativeCancel cancel = new NativeCancel();
    try {
      return new InterruptibleWait(cancel).run(acquire);
    } finally {
      // Safe: end() has returned, so no interrupt can still reach the token.
      cancel.delete();
    }
  }

  private boolean run(CancellableAcquire acquire) throws InterruptedException {
    boolean acquired;
    begin();
    try {
      acquired = acquire.acquire(cancel);
    } catch (DLockException e) {
      if (e.getStatus() != DLockStatus.INTERRUPTED) {
        throw e;
      }
      acquired = false;
    } finally {
      endQuietly();
    }
    if (acquired) {
      return true;
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while waiting for a dlock lock");
    }
    return false;
  }

  private void endQuietly() {
    try {
      end(true);
    } catch (IOException closedByInterrupt) {
      // The interrupt flag, still set, is what run() reports.
    }
  }

  @Override
  protected void implCloseChannel() {
    cancel.trigger();
  }
}
