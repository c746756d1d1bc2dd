package io.dlock.shedlock;

import io.dlock.DLock;
import io.dlock.LockExpiredException;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock job's hold of a dlock lock, as {@link DLockLockProvider} gives
 * it: unlock it from the thread that took it.
 */
public final class DLockSimpleLock implements SimpleLock {
  private final DLock lock;
  private final Instant lockAtLeastUntil;
  private final long fencingToken;

  DLockSimpleLock(DLock lock, Instant lockAtLeastUntil) {
    this.lock = lock;
    this.lockAtLeastUntil = lockAtLeastUntil;
    this.fencingToken = lock.getFencingToken();
  }

  /** The job's name, which is the lock's. */
  public String getName() {
    return lock.getName();
  }

  /**
   * This grant's fencing token: successive grants of a name get strictly
   * increasing tokens, so a resource that remembers the highest it saw can
   * refuse a run whose lock had already expired (see docs/safety.md).
   */
  public long getFencingToken() {
    return fencingToken;
  }

  /**
   * Ends the hold; before {@code lockAtLeastUntil} the lock stays taken until
   * then (a fixed lease nothing renews), so nobody runs the job again sooner.
   * A hold whose {@code lockAtMostFor} ran out before the task ended is
   * already free: nothing is released and nothing thrown, as in ShedLock.
   *
   * @throws IllegalMonitorStateException when the calling thread is not the
   *     one that took the lock
   * @throws io.dlock.LockLostException when the lock was taken from the
   *     holder (force-released, or the key deleted on Redis)
   */
  @Override
  public void unlock() {
    long keepMs = DLockLockProvider.millisFromNow(lockAtLeastUntil);
    try {
      if (keepMs > 0) {
        lock.unlockKeeping(keepMs, TimeUnit.MILLISECONDS);
      } else {
        lock.unlock();
      }
    } catch (LockExpiredException lockAtMostForPassed) {
      // The lease ran out as lockAtMostFor asked: the lock is free already.
    }
  }

  @Override
  public String toString() {
    return "DLockSimpleLock{name=" + getName() + ", fencingToken=" + fencingToken
        + ", lockAtLeastUntil=" + lockAtLeastUntil + "}";
  }
}
