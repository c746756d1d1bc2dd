package io.dlock;

import java.io.IOException;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A blocking native wait that {@link Thread#interrupt()} cuts short, for
 * platform threads (virtual threads park in Java instead: {@link PendingAcquire}).
 *
 * <p>A thread blocked in native code does not see Java interrupts, but an
 * interruptible channel does: between {@code begin()} and {@code end()},
 * {@code Thread.interrupt()} closes the channel the thread is blocked on. Closing
 * this one triggers the core's cancel token, so the wait returns within a few
 * milliseconds, with no watcher thread and no polling.
 *
 * <p>A wait that succeeds while an interrupt arrives keeps what it took and
 * leaves the thread's interrupt flag set, as if the interrupt came just after.
 */
final class InterruptibleWait extends AbstractInterruptibleChannel {
  private final NativeCancel cancel;

  private InterruptibleWait(NativeCancel cancel) {
    this.cancel = cancel;
  }

  /** true: held; false: the wait ran out. */
  static boolean acquire(NativeLock lock, long owner, long waitMs, long leaseMs)
      throws InterruptedException {
    return run(cancel -> lock.acquire(owner, waitMs, leaseMs, cancel), acquired -> acquired, false);
  }

  /**
   * Runs {@code wait} with a cancel token that an interrupt triggers. Returns its
   * outcome when {@code succeeded} says it succeeded; else throws
   * InterruptedException if the thread was interrupted, or returns the outcome
   * (a wait that ran out). {@code cutShort} stands for the outcome of a wait the
   * interrupt ended.
   */
  static <T> T run(Function<NativeCancel, T> wait, Predicate<T> succeeded, T cutShort)
      throws InterruptedException {
    NativeCancel cancel = new NativeCancel();
    try {
      return new InterruptibleWait(cancel).waitFor(wait, succeeded, cutShort);
    } finally {
      // Safe: end() has returned, so no interrupt can still reach the token.
      cancel.delete();
    }
  }

  private <T> T waitFor(Function<NativeCancel, T> wait, Predicate<T> succeeded, T cutShort)
      throws InterruptedException {
    T outcome;
    begin();
    try {
      outcome = wait.apply(cancel);
    } catch (DLockException e) {
      if (e.getStatus() != DLockStatus.INTERRUPTED) {
        throw e;
      }
      outcome = cutShort;
    } finally {
      endQuietly();
    }
    if (outcome != null && succeeded.test(outcome)) {
      return outcome;
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while waiting on dlock");
    }
    return outcome;
  }

  private void endQuietly() {
    try {
      end(true);
    } catch (IOException closedByInterrupt) {
      // The interrupt flag, still set, is what waitFor() reports.
    }
  }

  @Override
  protected void implCloseChannel() {
    cancel.trigger();
  }
}
