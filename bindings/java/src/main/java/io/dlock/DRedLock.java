package io.dlock;

import java.util.concurrent.TimeUnit;

/**
 * Redis's RedLock algorithm over N >= 3 locks on N independent servers:
 * {@code new DRedLock(c1.getLock("job"), c2.getLock("job"), c3.getLock("job"))}
 * with clients of different URLs.
 *
 * <p>Held when a majority of the members are granted within the wait; the
 * grant is valid for {@code lease - elapsed - drift} (drift = lease/100 + 2 ms),
 * see {@link #remainingValidity(TimeUnit)}. A failed attempt releases every
 * member. With the watchdog (no lease) every member is renewed, and the lock
 * is reported lost once fewer than a majority stay held.
 *
 * <p>No fencing token: the members' counters are independent, so no number
 * built from them is ordered across grants (Kleppmann, 2016). Where a token
 * matters, use one {@link DLock} on a single master and fence with it.
 */
public final class DRedLock extends DLockGroup {
  /**
   * @throws DLockException INVALID for fewer than 3 locks, a lock given twice,
   *     or two members whose clients use one server
   * @throws IllegalStateException when a member's client is closed
   */
  public DRedLock(DLock... locks) {
    super(true, locks);
  }

  /**
   * How long the calling thread's hold is still valid, never longer than the
   * servers' leases; 0 when it holds nothing or the hold was lost.
   */
  public long remainingValidity(TimeUnit unit) {
    return unit.convert(live().validityMs(DLock.currentOwner()), TimeUnit.MILLISECONDS);
  }

  @Override
  public String toString() {
    return "DRedLock[" + getNames() + "]";
  }
}
