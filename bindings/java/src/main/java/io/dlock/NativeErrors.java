package io.dlock;

/**
 * The one table from a failed native status to the Java exception thrown for
 * it. The JNI layer (dlock.i) calls it for every failing call.
 */
final class NativeErrors {
  private NativeErrors() {}

  /**
   * {@code expiry}: the core called a {@code E_LOST} an expiry (a fixed lease
   * that ran out as asked), thrown as {@link LockExpiredException}.
   */
  static RuntimeException toException(int status, String message, boolean expiry) {
    switch (status) {
      case NativeStatus.E_CLOSED:
        return new IllegalStateException("the DLockClient is closed: " + message);
      case NativeStatus.E_NOT_OWNER:
        // As ReentrantLock does for an unlock by a thread that does not hold it.
        return new IllegalMonitorStateException(message);
      case NativeStatus.E_LOST:
        return expiry ? new LockExpiredException(message) : new LockLostException(message);
      default:
        return new DLockException(DLockStatus.of(status), message);
    }
  }
}
