package io.dlock;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One subscriber of a {@link DElection}'s leaders: the changes the election's
 * observer hands it are queued and delivered on the client's callback
 * executor, one signal at a time, in order, as the subscriber requests them
 * (the Reactive Streams rules of {@link Flow}). Never on the core's observer
 * thread, which only queues, so a slow subscriber delays neither the observer
 * nor the other subscribers. A subscriber that lets more than {@value #BUFFER}
 * changes pile up unrequested is failed with an {@link IllegalStateException}
 * and cancelled, rather than let memory grow without bound.
 */
final class LeaderSubscription implements Flow.Subscription {
  static final int BUFFER = 1024;
  private static final System.Logger LOG = System.getLogger("io.dlock");

  private final Flow.Subscriber<? super Leader> subscriber;
  private final Executor executor;
  /** Deliveries scheduled and not yet drained: one drain runs at a time. */
  private final AtomicInteger pendingDrains = new AtomicInteger();

  // Guarded by this.
  private final ArrayDeque<Leader> queue = new ArrayDeque<>();
  private long demand;
  private boolean completing;
  private Throwable failure;
  private boolean cancelled;

  // Touched only by the drain, which runs one at a time.
  private boolean subscribed;
  private boolean terminated;

  LeaderSubscription(Flow.Subscriber<? super Leader> subscriber, Executor executor) {
    this.subscriber = Objects.requireNonNull(subscriber, "subscriber");
    this.executor = executor;
  }

  /** Sends onSubscribe (on the executor, like every signal). */
  void start() {
    schedule();
  }

  /** Queues one change; never blocks. */
  void offer(Leader leader) {
    synchronized (this) {
      if (cancelled || completing || failure != null) {
        return;
      }
      if (queue.size() >= BUFFER) {
        queue.clear();
        failure = new IllegalStateException("a subscriber of the leaders fell " + BUFFER
            + " changes behind (it requested too few): cancelled");
      } else {
        queue.add(leader);
      }
    }
    schedule();
  }

  /** onComplete after the changes already queued (the election was closed). */
  void complete() {
    synchronized (this) {
      completing = true;
    }
    schedule();
  }

  /** onError at once, dropping what is queued. */
  void fail(Throwable error) {
    synchronized (this) {
      if (failure == null) {
        failure = error;
      }
      queue.clear();
    }
    schedule();
  }

  @Override
  public void request(long n) {
    if (n <= 0) {
      fail(new IllegalArgumentException("request(" + n + "): the count must be positive (rule 3.9)"));
      return;
    }
    synchronized (this) {
      long sum = demand + n;
      demand = sum < 0 ? Long.MAX_VALUE : sum;
    }
    schedule();
  }

  @Override
  public void cancel() {
    synchronized (this) {
      cancelled = true;
      queue.clear();
    }
  }

  synchronized boolean isCancelled() {
    return cancelled;
  }

  private void schedule() {
    if (pendingDrains.getAndIncrement() == 0) {
      try {
        executor.execute(this::drainAll);
      } catch (RejectedExecutionException rejected) {
        LOG.log(System.Logger.Level.ERROR, "dlock: the callback executor refused the leaders' delivery", rejected);
        cancel();
        pendingDrains.set(0);
      }
    }
  }

  private void drainAll() {
    int drains = pendingDrains.get();
    do {
      drain();
      drains = pendingDrains.addAndGet(-drains);
    } while (drains != 0);
  }

  private void drain() {
    if (terminated) {
      return;
    }
    if (!subscribed) {
      subscribed = true;
      if (!signal(() -> subscriber.onSubscribe(this))) {
        return;
      }
    }
    while (true) {
      Leader next = null;
      Throwable error;
      boolean done;
      synchronized (this) {
        if (cancelled) {
          terminated = true;
          return;
        }
        error = failure;
        if (error == null && demand > 0 && !queue.isEmpty()) {
          next = queue.poll();
          if (demand != Long.MAX_VALUE) {
            demand--;
          }
        }
        done = error == null && next == null && completing && queue.isEmpty();
        if (error != null || done) {
          cancelled = true;
          terminated = true;
        }
      }
      if (error != null) {
        signal(() -> subscriber.onError(error));
        return;
      }
      if (done) {
        signal(subscriber::onComplete);
        return;
      }
      if (next == null) {
        return;
      }
      Leader leader = next;
      if (!signal(() -> subscriber.onNext(leader))) {
        return;
      }
    }
  }

  /** Runs one signal; a subscriber that throws is cancelled (rule 2.13) and the throw logged. */
  private boolean signal(Runnable call) {
    try {
      call.run();
      return true;
    } catch (Throwable thrown) {
      cancel();
      terminated = true;
      LOG.log(System.Logger.Level.ERROR, "dlock: a subscriber of the leaders threw: cancelled", thrown);
      return false;
    }
  }
}
