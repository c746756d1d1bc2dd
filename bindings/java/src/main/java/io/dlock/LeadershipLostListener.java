package io.dlock;

/**
 * Told when a {@link DElection}'s leadership is lost: its renewals failed or
 * its lease ran out (the process was paused, Redis unreachable, the key taken
 * or deleted). It is told before another candidate can be granted, so a
 * leader that stops its work here never overlaps the next one.
 *
 * <p>Called once per lost term, on the client's watchdog thread, as a
 * {@link LockLostListener} is: it must return quickly and must not wait on
 * this client (no blocking campaign, no close). Exceptions it throws are
 * logged (System.Logger {@code io.dlock}, ERROR).
 */
@FunctionalInterface
public interface LeadershipLostListener {
  /**
   * @param electionName the election's name
   * @param term the term that was lost
   */
  void leadershipLost(String electionName, long term);
}
