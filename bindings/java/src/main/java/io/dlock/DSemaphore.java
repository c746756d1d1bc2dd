package io.dlock;

import java.util.concurrent.TimeUnit;

/**
 * A counting semaphore on Redis, in Redisson's RSemaphore layout: a Redisson
 * {@code RSemaphore} of the same name shares its permits, and releases on
 * either side wake waiters on the other.
 *
 * <p>As {@link java.util.concurrent.Semaphore}: permits are not owned (any
 * thread may release), and waits throw {@link InterruptedException} when the
 * thread is interrupted. A semaphore that was never set has no permits: set
 * it once with {@link #trySetPermits(int)}. Waits never poll: a release
 * message wakes them. Obtain one from {@link DLockClient#getSemaphore(String)}.
 */
public final class DSemaphore {
  private final String name;
  private final NativeSemaphore handle;
  private final HandleGuard guard;

  DSemaphore(String name, NativeSemaphore handle, HandleGuard guard) {
    this.name = name;
    this.handle = handle;
    this.guard = guard;
  }

  public String getName() {
    return name;
  }

  /** Takes one permit, waiting as long as it takes. */
  public void acquire() throws InterruptedException {
    acquire(1);
  }

  /** Takes {@code permits} permits, waiting as long as it takes. */
  public void acquire(int permits) throws InterruptedException {
    take(permits, DLock.WAIT_FOREVER);
  }

  /** One attempt at one permit. */
  public boolean tryAcquire() {
    return guard.call(() -> handle.take(1, 0, null));
  }

  /** Waits at most {@code timeout} (0 or less: one attempt) for one permit. */
  public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
    return tryAcquire(1, timeout, unit);
  }

  /** Waits at most {@code timeout} (0 or less: one attempt) for {@code permits} permits. */
  public boolean tryAcquire(int permits, long timeout, TimeUnit unit) throws InterruptedException {
    return take(permits, DLock.waitMillis(timeout, unit));
  }

  private boolean take(int permits, long waitMs) throws InterruptedException {
    return guard.call(() -> InterruptibleWait.run(
        cancel -> handle.take(permits, waitMs, cancel), taken -> taken, false));
  }

  public void release() {
    release(1);
  }

  /**
   * Gives back {@code permits} permits and wakes the waiters.
   *
   * @throws LockLostException nothing was added: the permits were taken
   *     through this semaphore and its key has vanished since (a Redis
   *     restart without persistence, a failover); {@link #trySetPermits(int)}
   *     can then set it again
   */
  public void release(int permits) {
    guard.run(() -> handle.give(permits));
  }

  /** The permits available now (one round trip). */
  public int availablePermits() {
    return (int) (long) guard.call(handle::availablePermits);
  }

  /**
   * Sets the permits when the semaphore does not exist yet (never set, or
   * vanished); false when it did.
   */
  public boolean trySetPermits(int permits) {
    return guard.call(() -> handle.trySetPermits(permits));
  }

  /** Frees the native handle (the client is closing). */
  void free() {
    handle.delete();
  }

  @Override
  public String toString() {
    return "DSemaphore[" + name + "]";
  }
}
