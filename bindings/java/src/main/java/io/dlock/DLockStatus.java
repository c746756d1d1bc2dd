package io.dlock;

/** Why a dlock call failed: the status a {@link DLockException} carries. */
public enum DLockStatus {
  /** An argument was rejected (empty or too long name, malformed URL, time out of range). */
  INVALID(NativeStatus.INVALID),
  /** Redis could not be reached, an I/O error happened, or a command timed out. */
  CONNECTION(NativeStatus.CONNECTION),
  /** The caller held the lock but its lease ran out or it was taken. */
  LOST(NativeStatus.LOST),
  /** Redis answered something unexpected, e.g. the lock's key holds another type. */
  PROTOCOL(NativeStatus.PROTOCOL),
  /** Redis refused the credentials, or requires some. */
  AUTH(NativeStatus.AUTH),
  /** A blocking acquire was cut short. */
  INTERRUPTED(NativeStatus.INTERRUPTED),
  /** Memory could not be allocated. */
  NOMEM(NativeStatus.NOMEM),
  /** The operation is not supported by this build or this server. */
  UNSUPPORTED(NativeStatus.UNSUPPORTED),
  /** A status this version of the binding does not know. */
  UNKNOWN(Integer.MIN_VALUE);

  private final int code;

  DLockStatus(int code) {
    this.code = code;
  }

  static DLockStatus of(int code) {
    for (DLockStatus status : values()) {
      if (status.code == code) {
        return status;
      }
    }
    return UNKNOWN;
  }
}
