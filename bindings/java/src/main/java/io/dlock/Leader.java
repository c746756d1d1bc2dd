package io.dlock;

import java.time.Instant;
import java.util.Objects;

/**
 * A leader of a {@link DElection}, as every client sees it: the value it
 * published, its term and when the term began. Immutable; two Leaders are
 * equal when their value, term and start are.
 *
 * <p>The term is a fencing token: it only grows over the successive leaders
 * of a name, so the resource a leader drives can refuse a deposed leader's
 * writes by their lower term.
 */
public final class Leader {
  private final String value;
  private final long term;
  private final Instant since;

  Leader(String value, long term, Instant since) {
    this.value = Objects.requireNonNull(value, "value");
    this.term = term;
    this.since = Objects.requireNonNull(since, "since");
  }

  /** A leader as the core reports it: {@code sinceMs} is Unix time in ms by the server's clock. */
  static Leader of(String value, long term, long sinceMs) {
    return new Leader(value, term, Instant.ofEpochMilli(sinceMs));
  }

  /** What the leader published when it was elected, or proclaimed since ("" for nothing). */
  public String value() {
    return value;
  }

  /** The leader's term: its fencing token, greater than every earlier leader's. */
  public long term() {
    return term;
  }

  /** When the term began, by the Redis server's clock. */
  public Instant since() {
    return since;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Leader)) {
      return false;
    }
    Leader that = (Leader) other;
    return term == that.term && value.equals(that.value) && since.equals(that.since);
  }

  @Override
  public int hashCode() {
    return Objects.hash(value, term, since);
  }

  @Override
  public String toString() {
    return "Leader[value=" + value + ", term=" + term + ", since=" + since + "]";
  }
}
