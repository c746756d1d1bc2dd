package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The futures of DLock's asynchronous methods. They are completed on the
 * client's callback executor, never on dlock's own async thread, so stages a
 * user attaches (with or without an executor) never run there; stages
 * attached with {@code ...Async} and no executor run on the same executor.
 * Cancelling one also runs its {@code onCancel} (ending a native wait).
 */
final class DLockFuture<T> extends CompletableFuture<T> {
  private final Executor executor;
  private final Runnable onCancel;

  DLockFuture(Executor executor, Runnable onCancel) {
    this.executor = executor;
    this.onCancel = onCancel;
  }

  @Override
  public Executor defaultExecutor() {
    return executor;
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new DLockFuture<>(executor, null);
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled && onCancel != null) {
      onCancel.run();
    }
    return cancelled;
  }
}
