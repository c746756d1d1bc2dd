package io.dlock;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The native waits running on one handle that the handle's own close must
 * end before it frees the handle: blocking waits (their cancel token) and
 * asynchronous ones (their {@link PendingAcquire}), which the core needs alive
 * until it reports. {@link #closeAndAwait()} cancels each of them and returns
 * once all have ended; a wait that starts after it is cancelled at once.
 */
final class WaitsInFlight {
  /** Guarded by this: the cancel of each wait still running. */
  private final Set<Runnable> cancels = new HashSet<>();
  private boolean closed;

  /**
   * Registers a running wait by what cancels it (triggered under this
   * object's monitor, so never after {@link #remove}); a wait registered once
   * closed is cancelled at once.
   */
  synchronized void add(Runnable cancel) {
    cancels.add(cancel);
    if (closed) {
      cancel.run();
    }
  }

  /** The wait has ended: its cancel is never run from now on. */
  synchronized void remove(Runnable cancel) {
    if (cancels.remove(cancel) && cancels.isEmpty()) {
      notifyAll();
    }
  }

  /** Runs the blocking native wait {@code wait}, which {@code cancel} cuts short, as one of these waits. */
  <T> T blocking(NativeCancel cancel, Supplier<T> wait) {
    Runnable trigger = cancel::trigger;
    add(trigger);
    try {
      return wait.get();
    } finally {
      // Before the token is freed: once removed, nothing triggers it.
      remove(trigger);
    }
  }

  /** Starts an asynchronous native wait with {@code begin}, as one of these waits until the core reports it. */
  PendingAcquire started(Supplier<PendingAcquire> begin) {
    AtomicReference<PendingAcquire> pending = new AtomicReference<>();
    Runnable cancel = () -> {
      PendingAcquire started = pending.get();
      if (started != null) {
        started.cancelWait();
      }
    };
    add(cancel);
    PendingAcquire started;
    try {
      started = begin.get();
    } catch (RuntimeException | Error notStarted) {
      remove(cancel);
      throw notStarted;
    }
    pending.set(started);
    started.outcome().whenComplete((outcome, never) -> remove(cancel));
    if (isClosed()) {
      // A close that ran the cancel before it could reach the wait.
      started.cancelWait();
    }
    return started;
  }

  /** Whether {@link #closeAndAwait()} has begun: a wait cut short then was cut by the close. */
  synchronized boolean isClosed() {
    return closed;
  }

  /** Cancels every wait (and every later one) and returns once they have all ended. */
  synchronized void closeAndAwait() {
    closed = true;
    cancels.forEach(Runnable::run);
    boolean interrupted = false;
    while (!cancels.isEmpty()) {
      try {
        wait();
      } catch (InterruptedException e) {
        // The handle cannot be freed under a wait: finish, then restore the flag.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
