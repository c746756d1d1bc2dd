package io.dlock;

/**
 * The one table from a failed native status to the Java exception thrown for
 * it. The JNI layer (dlock.i) calls it for every failing call.
 */
final class NativeErrors {
  private NativeErrors() {}

  static RuntimeException toException(int status, String message) {
    switch (status) {
      case NativeStatus.E_CLOSED:
        return new IllegalStateException("the DLockClient is closed: " + message);
      case NativeStatus.E_NOT_OWNER:
        // As ReentrantLock does for an unlock by a thread that does not hold it.
        return new IllegalMonitorStateException(message);
      case NativeStatus.E_LOST:
        return new LockLostException(message);
      default:
        return new DLockException(DLockStatus.of(status), message);
    }
  }
}
