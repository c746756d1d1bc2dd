package io.dlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one native observer of a {@link DElection} (the SWIG director that
 * {@code dlock_election_observe} calls on the core's observer thread), fanned
 * out to every subscriber: each change is queued for each subscription
 * ({@link LeaderSubscription}), which delivers it on the client's callback
 * executor. A subscriber that joins later first gets the leader last
 * observed when it still leads, then every change after it: none twice, none
 * missed.
 *
 * <p>Kept by its DElection for the handle's life: the native side holds only
 * a weak reference to a director.
 */
final class LeaderFanOut extends NativeLeaderCallback {
  private static final System.Logger LOG = System.getLogger("io.dlock");

  private final String electionName;
  private final Executor executor;
  // Guarded by this.
  private final List<LeaderSubscription> subscriptions = new ArrayList<>();
  private Leader latest;
  /** How many changes came: tells a subscriber's question from a change after it. */
  private long published;
  private boolean completed;

  LeaderFanOut(String electionName, Executor executor) {
    this.electionName = electionName;
    this.executor = executor;
  }

  /** Called by the core, on its observer thread, with each change in order: only queues. */
  @Override
  public void leader(long term, long sinceMs, String value) {
    try {
      publish(Leader.of(value, term, sinceMs));
    } catch (Throwable thrown) {
      // Nothing may propagate into the native observer thread.
      LOG.log(System.Logger.Level.ERROR, "dlock: delivering a leader of '" + electionName + "' failed", thrown);
    }
  }

  private synchronized void publish(Leader leader) {
    if (completed) {
      return;
    }
    latest = leader;
    published++;
    subscriptions.removeIf(LeaderSubscription::isCancelled);
    subscriptions.forEach(subscription -> subscription.offer(leader));
  }

  /**
   * Adds a subscriber: it gets onSubscribe, the leader last observed if it
   * still leads, then every change; onComplete once the election closes.
   * {@code current} (the server's answer, a round trip) is asked without this
   * object's monitor, which the observer thread needs to go on (and the
   * election's close waits for that thread).
   */
  void subscribe(Flow.Subscriber<? super Leader> subscriber, Supplier<Optional<Leader>> current) {
    long before;
    synchronized (this) {
      before = published;
    }
    Optional<Leader> now = latest() == null ? Optional.empty() : ask(current);
    synchronized (this) {
      LeaderSubscription subscription = new LeaderSubscription(subscriber, executor);
      subscription.start();
      if (completed) {
        subscription.complete();
        return;
      }
      // A change that came after the question is newer than its answer; else
      // the last change counts only if the server still has it as the leader
      // (not resigned or lapsed since, nor replaced by a change on its way here).
      if (latest != null && (published != before || now.filter(this::isLatest).isPresent())) {
        subscription.offer(latest);
      }
      subscriptions.add(subscription);
    }
  }

  private synchronized Leader latest() {
    return latest;
  }

  private boolean isLatest(Leader leader) {
    return leader.term() == latest.term() && leader.value().equals(latest.value());
  }

  private static Optional<Leader> ask(Supplier<Optional<Leader>> current) {
    try {
      return current.get();
    } catch (RuntimeException unknown) {
      return Optional.empty(); // closed, or Redis unreachable: only changes from now on
    }
  }

  /** Fails every subscriber with {@code error} (the observer could not start) and forgets them. */
  synchronized void failAll(Throwable error) {
    subscriptions.forEach(subscription -> subscription.fail(error));
    subscriptions.clear();
  }

  /** onComplete to every subscriber, after what is queued: the election is closed. */
  synchronized void complete() {
    completed = true;
    subscriptions.forEach(LeaderSubscription::complete);
    subscriptions.clear();
  }

  /** A subscriber that hands every change to {@code consumer}; what it throws is logged, not fatal. */
  static Flow.Subscriber<Leader> consuming(String electionName, Consumer<? super Leader> consumer) {
    Objects.requireNonNull(consumer, "consumer");
    return new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(Leader leader) {
        try {
          consumer.accept(leader);
        } catch (RuntimeException thrown) {
          LOG.log(System.Logger.Level.ERROR, "dlock: an observer of the leaders of '" + electionName + "' threw",
              thrown);
        }
      }

      @Override
      public void onError(Throwable error) {
        LOG.log(System.Logger.Level.ERROR, "dlock: observing the leaders of '" + electionName + "' failed", error);
      }

      @Override
      public void onComplete() {}
    };
  }
}
