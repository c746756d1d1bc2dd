package io.dlock;

/**
 * Every member or none, as Redisson's {@code RedissonMultiLock}:
 * {@code new DMultiLock(client.getLock("a"), client.getLock("b"))}.
 *
 * <p>Members may come from one client or several. They are taken in a
 * canonical order (server, then name) whatever order they are given in, and a
 * failed attempt lets go of what it took before it waits for the member that
 * refused, so no member stays held by a thread that does not hold them all,
 * and two MultiLocks over overlapping sets never deadlock. Re-entrant: the
 * thread's second lock re-enters each member. A member lost is the MultiLock
 * lost: the listener is told once and {@link #unlock()} throws
 * {@link LockLostException}. No fencing token of its own: each member has one
 * ({@link DLock#getFencingToken()}).
 */
public final class DMultiLock extends DLockGroup {
  /**
   * @throws DLockException INVALID when no lock is given or one is given twice
   * @throws IllegalStateException when a member's client is closed
   */
  public DMultiLock(DLock... locks) {
    super(false, locks);
  }

  @Override
  public String toString() {
    return "DMultiLock[" + getNames() + "]";
  }
}
