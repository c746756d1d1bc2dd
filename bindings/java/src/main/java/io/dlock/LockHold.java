package io.dlock;

/**
 * One hold of a {@link DLock}, released by {@link #close()}: the
 * try-with-resources form of lock/unlock.
 *
 * <pre>{@code
 * try (LockHold hold = lock.acquire()) {
 *   storage.write(data, hold.fencingToken());
 * }
 * }</pre>
 */
public final class LockHold implements AutoCloseable {
  private final DLock lock;
  private final long fencingToken;
  private boolean released;

  LockHold(DLock lock, long fencingToken) {
    this.lock = lock;
    this.fencingToken = fencingToken;
  }

  /** The fencing token of this hold. */
  public long fencingToken() {
    return fencingToken;
  }

  public DLock lock() {
    return lock;
  }

  /**
   * Releases the hold (once; later calls do nothing). Must run on the thread
   * that acquired it.
   *
   * @throws LockLostException when the hold had been lost meanwhile
   */
  @Override
  public void close() {
    if (!released) {
      released = true;
      lock.unlock();
    }
  }
}
