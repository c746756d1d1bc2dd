package io.dlock;

/**
 * Told when a permit of a {@link DPermitExpirableSemaphore} is lost: its lease
 * ran out before its release (it went back to the pool).
 *
 * <p>Called once per lost permit, on the client's watchdog thread (or in the
 * release that found the loss): it must return quickly and must not wait on
 * this client. Exceptions it throws are logged (System.Logger {@code io.dlock}).
 */
@FunctionalInterface
public interface PermitLostListener {
  void permitLost(String semaphoreName, String permitId);
}
