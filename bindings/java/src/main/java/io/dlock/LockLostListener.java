package io.dlock;

/**
 * Told when a hold of a {@link DLock} is lost: a renewal found the key gone or
 * owned by someone else, or the lease ran out before a renewal succeeded.
 * It is also told, as before, when a fixed lease runs out while still held (an
 * expiry, not a loss: {@link DLockStats#getExpiries()}, an INFO record, and
 * {@link LockExpiredException} from the unlock): the section the hold guarded
 * is unprotected from then on either way.
 *
 * <p>Called once per lost hold, on the client's watchdog thread: it must return
 * quickly and must not wait on this client (no blocking lock, no close).
 * Exceptions it throws are logged (System.Logger {@code io.dlock}, ERROR).
 */
@FunctionalInterface
public interface LockLostListener {
  /**
   * @param lockName the lock's name
   * @param ownerThreadId {@link Thread#getId()} of the thread that held it
   * @param fencingToken the token of the lost hold
   */
  void lockLost(String lockName, long ownerThreadId, long fencingToken);
}
