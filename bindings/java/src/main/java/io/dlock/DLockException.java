package io.dlock;

/**
 * A dlock call failed. {@link #getStatus()} says why; the message is the
 * core's description of the failing call (never a password).
 */
public class DLockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final DLockStatus status;

  DLockException(DLockStatus status, String message) {
    super(message);
    this.status = status;
  }

  public DLockStatus getStatus() {
    return status;
  }
}
