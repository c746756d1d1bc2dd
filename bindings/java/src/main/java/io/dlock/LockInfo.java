package io.dlock;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A snapshot of a lock, from {@link DLock#inspect()}: who holds it, its
 * remaining lease and the last fencing token granted.
 *
 * @param holders the lock's holders (empty when it is free)
 * @param remainingLeaseMillis the lock's remaining lease: -2 when not locked, -1 without expiry
 * @param lastFencingToken the last fencing token granted for the name, if any ever was
 */
public record LockInfo(List<Holder> holders, long remainingLeaseMillis, OptionalLong lastFencingToken) {
  /**
   * One holder.
   *
   * @param id its hash field: {@code <client-id>:<owner>} for dlock and Redisson
   *     holders, {@code <client-id>:<owner>:kept} for a hold kept by
   *     {@link DLock#unlockKeeping}
   * @param holdCount its hold count as Redis records it
   */
  public record Holder(String id, long holdCount) {
    public Holder {
      Objects.requireNonNull(id, "id");
    }
  }

  public LockInfo {
    holders = List.copyOf(holders);
    Objects.requireNonNull(lastFencingToken, "lastFencingToken");
  }

  /** Whether anyone held the lock when the snapshot was taken. */
  public boolean isLocked() {
    return !holders.isEmpty();
  }
}
