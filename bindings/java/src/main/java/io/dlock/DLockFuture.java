package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The futures of DLock's asynchronous methods. dlock's async thread completes
 * them, which wakes threads blocked in get() or join() at once; every stage
 * attached to them runs on the client's callback executor instead (the
 * methods without {@code Async} turn into their {@code Async} form), so no
 * user code ever runs on dlock's thread, which drives every asynchronous call
 * of the client. Cancelling one also runs its {@code onCancel} (ending a
 * native wait).
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

  @Override
  public <U> CompletableFuture<U> thenApply(Function<? super T, ? extends U> fn) {
    return thenApplyAsync(fn, executor);
  }

  @Override
  public CompletableFuture<Void> thenAccept(Consumer<? super T> action) {
    return thenAcceptAsync(action, executor);
  }

  @Override
  public CompletableFuture<Void> thenRun(Runnable action) {
    return thenRunAsync(action, executor);
  }

  @Override
  public <U, V> CompletableFuture<V> thenCombine(CompletionStage<? extends U> other,
      BiFunction<? super T, ? super U, ? extends V> fn) {
    return thenCombineAsync(other, fn, executor);
  }

  @Override
  public <U> CompletableFuture<Void> thenAcceptBoth(CompletionStage<? extends U> other,
      BiConsumer<? super T, ? super U> action) {
    return thenAcceptBothAsync(other, action, executor);
  }

  @Override
  public CompletableFuture<Void> runAfterBoth(CompletionStage<?> other, Runnable action) {
    return runAfterBothAsync(other, action, executor);
  }

  @Override
  public <U> CompletableFuture<U> applyToEither(CompletionStage<? extends T> other,
      Function<? super T, U> fn) {
    return applyToEitherAsync(other, fn, executor);
  }

  @Override
  public CompletableFuture<Void> acceptEither(CompletionStage<? extends T> other,
      Consumer<? super T> action) {
    return acceptEitherAsync(other, action, executor);
  }

  @Override
  public CompletableFuture<Void> runAfterEither(CompletionStage<?> other, Runnable action) {
    return runAfterEitherAsync(other, action, executor);
  }

  @Override
  public <U> CompletableFuture<U> thenCompose(
      Function<? super T, ? extends CompletionStage<U>> fn) {
    return thenComposeAsync(fn, executor);
  }

  @Override
  public <U> CompletableFuture<U> handle(BiFunction<? super T, Throwable, ? extends U> fn) {
    return handleAsync(fn, executor);
  }

  @Override
  public CompletableFuture<T> whenComplete(BiConsumer<? super T, ? super Throwable> action) {
    return whenCompleteAsync(action, executor);
  }

  @Override
  public CompletableFuture<T> exceptionally(Function<Throwable, ? extends T> fn) {
    return exceptionallyAsync(fn, executor);
  }

  @Override
  public CompletableFuture<T> exceptionallyCompose(
      Function<Throwable, ? extends CompletionStage<T>> fn) {
    return exceptionallyComposeAsync(fn, executor);
  }
}
