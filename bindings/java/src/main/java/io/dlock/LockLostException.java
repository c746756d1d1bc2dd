package io.dlock;

/**
 * The calling thread held the lock, but the lock was taken from it (for
 * example by {@link DLock#forceUnlock()}, or its key deleted) or its
 * watchdog lease lapsed: whatever it guarded may have been changed by another
 * holder meanwhile. A fixed lease that ran out as asked is the subclass
 * {@link LockExpiredException}, so a handler of this type handles both.
 */
public class LockLostException extends DLockException {
  private static final long serialVersionUID = 1L;

  LockLostException(String message) {
    super(DLockStatus.LOST, message);
  }
}
