package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One asynchronous native wait (a lock's, a semaphore's, a leased permit's, a
 * latch's, a lock group's acquire) and the cancel token that cuts it short.
 * A thread waiting for it parks in Java (a virtual thread unmounts from its
 * carrier) until the core reports the outcome from its own async thread, so
 * waiters never pin the carriers their holders need to unlock.
 */
final class PendingAcquire {
  private final NativeCancel cancel = new NativeCancel();
  /** Completed on dlock's async thread; only our own waits and stages depend on it. */
  private final CompletableFuture<NativeOutcome> outcome = new CompletableFuture<>();
  /** Guarded by this: once set, the token is freed and must not be triggered. */
  private boolean finished;

  /** Starts a native asynchronous wait that {@code cancel} cuts short. */
  @FunctionalInterface
  interface Start {
    void start(NativeCancel cancel, NativeDoneCallback callback, long call);
  }

  private PendingAcquire() {}

  static PendingAcquire start(NativeLock lock, long owner, long waitMs, long leaseMs) {
    return start((cancel, callback, call) -> lock.acquireAsync(owner, waitMs, leaseMs, cancel, callback, call));
  }

  static PendingAcquire start(Start start) {
    PendingAcquire pending = new PendingAcquire();
    try {
      NativeCompletions.start((callback, call) -> start.start(pending.cancel, callback, call), pending::finish);
    } catch (RuntimeException notStarted) {
      pending.cancel.delete();
      throw notStarted;
    }
    return pending;
  }

  /** The outcome, completed on dlock's thread: attach only stages that hand it on. */
  CompletableFuture<NativeOutcome> outcome() {
    return outcome;
  }

  /** Ends the wait early with an INTERRUPTED outcome, unless it has finished. */
  synchronized void cancelWait() {
    if (!finished) {
      cancel.trigger();
    }
  }

  /** Waits ignoring interrupts (the flag is kept): true held, false the wait ran out. */
  boolean awaitUninterruptibly() {
    return outcome.join().acquiredOrThrow();
  }

  /**
   * Waits until the outcome or an interrupt, which cancels the wait. A grant
   * that wins the race with the interrupt is kept, and the interrupt flag set
   * again, as if the interrupt came just after.
   */
  boolean awaitInterruptibly() throws InterruptedException {
    return awaitOutcomeInterruptibly().acquiredOrThrow();
  }

  /** {@link #awaitInterruptibly()}, giving the outcome itself (a leased permit's id). */
  NativeOutcome awaitOutcomeInterruptibly() throws InterruptedException {
    try {
      return outcome.get();
    } catch (InterruptedException interrupt) {
      cancelWait();
      NativeOutcome result = outcome.join();
      if (result.status() == NativeStatus.E_INTERRUPTED
          || result.status() == NativeStatus.NOT_ACQUIRED) {
        throw new InterruptedException("interrupted while waiting for a dlock lock");
      }
      Thread.currentThread().interrupt();
      return result;
    } catch (ExecutionException impossible) {
      throw new AssertionError("outcomes complete normally", impossible);
    }
  }

  private void finish(NativeOutcome result) {
    synchronized (this) {
      // Safe: the core has left the token before reporting.
      finished = true;
      cancel.delete();
    }
    outcome.complete(result);
  }
}
