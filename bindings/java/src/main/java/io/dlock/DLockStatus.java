package io.dlock;

/**
 * Why a dlock call failed: the status a {@link DLockException} carries. The codes
 * come from dlock.h (NativeStatus); the two failures that Java reports with its
 * own exceptions, a closed client and releasing a lock not held, have no value here.
 */
public enum DLockStatus {
  /** An argument was rejected (empty or too long name, malformed URL, time out of range). */
  INVALID(NativeStatus.E_INVALID),
  /** Redis could not be reached, an I/O error happened, or a command timed out. */
  CONNECTION(NativeStatus.E_CONNECTION),
  /** The caller held the lock but its lease ran out or it was taken. */
  LOST(NativeStatus.E_LOST),
  /** Redis answered something unexpected, e.g. the lock's key holds another type. */
  PROTOCOL(NativeStatus.E_PROTOCOL),
  /** Redis refused the credentials, or requires some. */
  AUTH(NativeStatus.E_AUTH),
  /** A blocking acquire was cut short. */
  INTERRUPTED(NativeStatus.E_INTERRUPTED),
  /** Memory could not be allocated. */
  NOMEM(NativeStatus.E_NOMEM),
  /** The operation is not supported by this build or this server. */
  UNSUPPORTED(NativeStatus.E_UNSUPPORTED),
  /** A defect inside dlock; the message says where. Please report it. */
  INTERNAL(NativeStatus.E_INTERNAL),
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
