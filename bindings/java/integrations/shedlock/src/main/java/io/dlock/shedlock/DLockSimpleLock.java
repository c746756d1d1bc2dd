package io.dlock.shedlock;

import io.dlock.DLock;
import io.dlock.LockExpiredException;
import io.dlock.LockLostException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock job's hold of a dlock lock, as {@link DLockLockProvider} gives
 * it: unlock or extend it from the thread that took it. Once unlocked or
 * extended it is spent (ShedLock's rule): a second call throws
 * {@link IllegalStateException}.
 */
public final class DLockSimpleLock extends AbstractSimpleLock {
  private final DLock lock;
  private final long fencingToken;

  DLockSimpleLock(DLock lock, LockConfiguration configuration) {
    this(lock, configuration, lock.getFencingToken());
  }

  private DLockSimpleLock(DLock lock, LockConfiguration configuration, long fencingToken) {
    super(configuration);
    this.lock = lock;
    this.fencingToken = fencingToken;
  }

  /** The job's name, which is the lock's. */
  public String getName() {
    return lock.getName();
  }

  /**
   * This grant's fencing token: successive grants of a name get strictly
   * increasing tokens, so a resource that remembers the highest it saw can
   * refuse a run whose lock had already expired (see docs/safety.md).
   * Extending keeps it.
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
  protected void doUnlock() {
    long keepMs = DLockLockProvider.millisFromNow(lockConfiguration.getLockAtLeastUntil());
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

  /**
   * ShedLock's {@code LockExtender.extendActiveLock}: the lease ends
   * {@code lockAtMostFor} from now (one round trip), and the returned lock
   * unlocks keeping the new {@code lockAtLeastFor}.
   *
   * @return empty when the hold was lost or its lease had run out
   */
  @Override
  protected Optional<SimpleLock> doExtend(LockConfiguration extended) {
    try {
      lock.extend(DLockLockProvider.leaseMillis(extended), TimeUnit.MILLISECONDS);
    } catch (LockLostException lostOrExpired) {
      return Optional.empty();
    }
    return Optional.of(new DLockSimpleLock(lock, extended, fencingToken));
  }

  @Override
  public String toString() {
    return "DLockSimpleLock{name=" + getName() + ", fencingToken=" + fencingToken
        + ", lockAtLeastUntil=" + lockConfiguration.getLockAtLeastUntil() + "}";
  }
}
