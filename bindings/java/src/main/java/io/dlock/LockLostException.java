package io.dlock;

/**
 * The calling thread held the lock, but its lease ran out or the lock was
 * taken from it (for example by {@link DLock#forceUnlock()}): whatever it
 * guarded may have been changed by another holder meanwhile.
 */
public final class LockLostException extends DLockException {
  private static final long serialVersionUID = 1L;

  LockLostException(String message) {
    super(DLockStatus.LOST, message);
  }
}
