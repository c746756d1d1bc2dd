package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * DLock's asynchronous acquire and release: each starts the native call and
 * returns at once; dlock's async thread completes the returned future, whose
 * stages run on the callback executor (DLockFuture).
 */
final class LockFutures {
  private static final System.Logger LOG = System.getLogger("io.dlock");

  private final NativeLock handle;
  private final HandleGuard guard;
  private final Executor executor;
  /** Keeps the DLock from the collector from a call's start until its outcome. */
  private final KeptWhileHeld keeper;

  LockFutures(NativeLock handle, HandleGuard guard, Executor executor, KeptWhileHeld keeper) {
    this.handle = handle;
    this.guard = guard;
    this.executor = executor;
    this.keeper = keeper;
  }

  /** Completes with true (held) or false (the wait ran out). */
  CompletableFuture<Boolean> tryAcquire(long owner, long waitMs, long leaseMs) {
    return acquire(owner, waitMs, leaseMs, acquired -> acquired);
  }

  /** Completes once held. */
  CompletableFuture<Void> acquire(long owner, long leaseMs) {
    return acquire(owner, DLock.WAIT_FOREVER, leaseMs, acquired -> null);
  }

  /**
   * Cancelling the future cancels the wait; a grant that raced the
   * cancellation is released, so a cancelled future leaves no hold.
   */
  private <T> CompletableFuture<T> acquire(long owner, long waitMs, long leaseMs,
      Function<Boolean, T> result) {
    keeper.begin();
    PendingAcquire pending;
    try {
      pending = guard.call(() -> PendingAcquire.start(handle, owner, waitMs, leaseMs));
    } catch (RuntimeException notStarted) {
      keeper.end();
      throw notStarted;
    }
    DLockFuture<T> future = new DLockFuture<>(executor, pending::cancelWait);
    pending.outcome().thenAccept(outcome -> {
      try {
        complete(future, outcome, result, owner);
      } finally {
        keeper.end();
      }
    });
    return future;
  }

  private <T> void complete(DLockFuture<T> future, NativeOutcome outcome, Function<Boolean, T> result,
      long owner) {
    NativeWaits.complete(future, outcome, granted -> result.apply(granted.acquiredOrThrow()),
        () -> releaseUnwanted(owner));
  }

  /** Completes once one hold of {@code owner} is released. */
  CompletableFuture<Void> release(long owner) {
    DLockFuture<Void> future = new DLockFuture<>(executor, null);
    startRelease(owner, outcome -> {
      if (outcome.succeeded()) {
        future.complete(null);
      } else {
        future.completeExceptionally(outcome.error());
      }
    });
    return future;
  }

  /** The hold granted to a future that was cancelled meanwhile: nobody will unlock it. */
  private void releaseUnwanted(long owner) {
    try {
      startRelease(owner, outcome -> {
        if (!outcome.succeeded()) {
          LOG.log(System.Logger.Level.WARNING, "dlock: releasing a grant that raced a cancellation failed: "
              + outcome.message());
        }
      });
    } catch (IllegalStateException closed) {
      // The client is closed, which released every hold it had.
    }
  }

  private void startRelease(long owner, Consumer<NativeOutcome> handler) {
    keeper.begin();
    try {
      guard.run(() -> NativeCompletions.start(
          (callback, call) -> handle.releaseAsync(owner, callback, call), outcome -> {
            try {
              handler.accept(outcome);
            } finally {
              keeper.end();
            }
          }));
    } catch (RuntimeException notStarted) {
      keeper.end();
      throw notStarted;
    }
  }
}
