package io.dlock;

/**
 * The hold's fixed lease ({@code tryLock(wait, lease, unit)}, a leased permit)
 * ran out as asked before the release: an expiry, not a loss. Nothing took the
 * lock away, but whatever it guarded was unprotected from the lease's end on,
 * so this is a {@link LockLostException}: a handler of losses handles it too.
 * Counted in {@link DLockStats#getExpiries()}, logged at INFO (a loss is
 * WARNING).
 */
public final class LockExpiredException extends LockLostException {
  private static final long serialVersionUID = 1L;

  LockExpiredException(String message) {
    super(message);
  }
}
