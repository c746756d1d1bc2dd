package io.dlock;

/**
 * The outcome of one asynchronous native call, as the core reported it;
 * {@code permitId}: a leased permit's id when its acquire was granted, else
 * null; {@code expiry}: a lost hold whose fixed lease ran out as asked.
 */
record NativeOutcome(int status, long token, String permitId, String message, boolean expiry) {
  boolean succeeded() {
    return status == NativeStatus.OK;
  }

  /** An acquire's outcome: true held, false the wait ran out; else its exception. */
  boolean acquiredOrThrow() {
    if (status == NativeStatus.NOT_ACQUIRED) {
      return false;
    }
    throwIfFailed();
    return true;
  }

  void throwIfFailed() {
    if (!succeeded()) {
      throw error();
    }
  }

  RuntimeException error() {
    return NativeErrors.toException(status, message, expiry);
  }
}
