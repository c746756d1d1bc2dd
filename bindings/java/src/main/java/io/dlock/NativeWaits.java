package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The waits of the semaphores, the latch and the lock groups, in the two forms
 * {@link DLock}'s have: a blocking wait that parks a virtual thread in Java
 * (never in native code, where it would pin its carrier), and a future that
 * dlock's async thread completes, with no thread waiting at all.
 */
final class NativeWaits {
  private static final System.Logger LOG = System.getLogger("io.dlock");

  private NativeWaits() {}

  /**
   * Waits until the outcome of the wait {@code begin} starts, or an interrupt: a platform thread in
   * the core's own wait ({@code blocking}, as {@link InterruptibleWait#run}
   * takes it), a virtual thread parked in Java on the asynchronous form.
   * {@code result} maps the asynchronous outcome (it throws the error); a
   * grant that wins the race with an interrupt is kept, the flag set again.
   * Both calls check that their handle is still open.
   */
  static <T> T interruptibly(Function<NativeCancel, T> blocking, Predicate<T> succeeded, T cutShort,
      Supplier<PendingAcquire> begin, Function<NativeOutcome, T> result) throws InterruptedException {
    if (!VirtualThreads.isCurrentVirtual()) {
      return InterruptibleWait.run(blocking, succeeded, cutShort);
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while waiting on dlock");
    }
    return result.apply(begin.get().awaitOutcomeInterruptibly());
  }

  /**
   * Starts a wait with {@code begin} and returns its future, whose stages run on
   * {@code executor}. Cancelling the future cancels the wait; a grant that
   * raced the cancellation is given back by {@code giveBack}, run on
   * {@code executor} (giving back may block; dlock's async thread must not).
   */
  static <T> CompletableFuture<T> future(Executor executor, Supplier<PendingAcquire> begin,
      Function<NativeOutcome, T> result, Consumer<NativeOutcome> giveBack) {
    PendingAcquire pending = begin.get();
    DLockFuture<T> future = new DLockFuture<>(executor, pending::cancelWait);
    pending.outcome().thenAccept(outcome -> complete(future, outcome, result,
        () -> executor.execute(() -> giveBackQuietly(giveBack, outcome))));
    return future;
  }

  /**
   * Completes {@code future} with {@code outcome} mapped by {@code result}
   * (exceptionally with its error); when the future was cancelled first, a
   * grant in {@code outcome} goes to {@code giveBack}, which must not block.
   */
  static <T> void complete(CompletableFuture<T> future, NativeOutcome outcome, Function<NativeOutcome, T> result,
      Runnable giveBack) {
    T value;
    try {
      value = result.apply(outcome);
    } catch (RuntimeException failed) {
      future.completeExceptionally(failed);
      return;
    }
    if (!future.complete(value) && outcome.succeeded()) {
      giveBack.run();
    }
  }

  /**
   * The result of a wait without a bound: null once granted, else the error.
   * Mapped here, not by a later stage, so that cancelling the future the
   * caller gets cancels the native wait.
   */
  static Void grantedOrThrow(NativeOutcome outcome) {
    outcome.throwIfFailed();
    return null;
  }

  private static void giveBackQuietly(Consumer<NativeOutcome> giveBack, NativeOutcome granted) {
    try {
      giveBack.accept(granted);
    } catch (RuntimeException failed) {
      // Nobody waits for it: the client closed, or the grant was lost meanwhile.
      LOG.log(System.Logger.Level.WARNING, "dlock: giving back a grant that raced a cancellation failed: "
          + failed.getMessage());
    }
  }
}
