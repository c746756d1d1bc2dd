package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A counting semaphore on Redis, in Redisson's RSemaphore layout: a Redisson
 * {@code RSemaphore} of the same name shares its permits, and releases on
 * either side wake waiters on the other.
 *
 * <p>As {@link java.util.concurrent.Semaphore}: permits are not owned (any
 * thread may release), and waits throw {@link InterruptedException} when the
 * thread is interrupted. A semaphore that was never set has no permits: set
 * it once with {@link #trySetPermits(int)}. Waits never poll: a release
 * message wakes them. Obtain one from {@link DLockClient#getSemaphore(String)}.
 *
 * <p>Waits park in Java on a virtual thread (it unmounts from its carrier),
 * and the {@code ...Async} methods return a {@link CompletableFuture} that no
 * thread waits for: the core's async thread completes it, and its stages run
 * on the client's callback executor. Cancelling such a future cancels the
 * wait; permits that raced the cancellation are given back.
 */
public final class DSemaphore {
  private final String name;
  private final NativeSemaphore handle;
  private final HandleGuard guard;
  private final Executor callbacks;

  DSemaphore(String name, NativeSemaphore handle, HandleGuard guard, Executor callbacks) {
    this.name = name;
    this.handle = handle;
    this.guard = guard;
    this.callbacks = callbacks;
  }

  public String getName() {
    return name;
  }

  /** Takes one permit, waiting as long as it takes. */
  public void acquire() throws InterruptedException {
    acquire(1);
  }

  /** Takes {@code permits} permits, waiting as long as it takes. */
  public void acquire(int permits) throws InterruptedException {
    take(permits, DLock.WAIT_FOREVER);
  }

  /** One attempt at one permit. */
  public boolean tryAcquire() {
    return guard.call(() -> handle.take(1, 0, null));
  }

  /** Waits at most {@code timeout} (0 or less: one attempt) for one permit. */
  public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
    return tryAcquire(1, timeout, unit);
  }

  /** Waits at most {@code timeout} (0 or less: one attempt) for {@code permits} permits. */
  public boolean tryAcquire(int permits, long timeout, TimeUnit unit) throws InterruptedException {
    return take(permits, DLock.waitMillis(timeout, unit));
  }

  /** {@link #acquire()} without blocking: completes once the permit is taken. */
  public CompletableFuture<Void> acquireAsync() {
    return acquireAsync(1);
  }

  /** {@link #acquire(int)} without blocking: completes once the permits are taken. */
  public CompletableFuture<Void> acquireAsync(int permits) {
    return takeAsync(permits, DLock.WAIT_FOREVER, NativeWaits::grantedOrThrow);
  }

  /** {@link #tryAcquire(long, TimeUnit)} without blocking: true taken, false the wait ran out. */
  public CompletableFuture<Boolean> tryAcquireAsync(long timeout, TimeUnit unit) {
    return tryAcquireAsync(1, timeout, unit);
  }

  /** {@link #tryAcquire(int, long, TimeUnit)} without blocking. */
  public CompletableFuture<Boolean> tryAcquireAsync(int permits, long timeout, TimeUnit unit) {
    return takeAsync(permits, DLock.waitMillis(timeout, unit), NativeOutcome::acquiredOrThrow);
  }

  private boolean take(int permits, long waitMs) throws InterruptedException {
    return NativeWaits.interruptibly(cancel -> guard.call(() -> handle.take(permits, waitMs, cancel)), taken -> taken, false,
        start(permits, waitMs), NativeOutcome::acquiredOrThrow);
  }

  private <T> CompletableFuture<T> takeAsync(int permits, long waitMs, Function<NativeOutcome, T> result) {
    return NativeWaits.future(callbacks, start(permits, waitMs), result, granted -> release(permits));
  }

  private Supplier<PendingAcquire> start(int permits, long waitMs) {
    return () -> PendingAcquire.start(
        (cancel, callback, call) -> guard.run(() -> handle.takeAsync(permits, waitMs, cancel, callback, call)));
  }

  public void release() {
    release(1);
  }

  /**
   * Gives back {@code permits} permits and wakes the waiters.
   *
   * @throws LockLostException nothing was added: the permits were taken
   *     through this semaphore and its key has vanished since (a Redis
   *     restart without persistence, a failover); {@link #trySetPermits(int)}
   *     can then set it again
   */
  public void release(int permits) {
    guard.run(() -> handle.give(permits));
  }

  /** The permits available now (one round trip). */
  public int availablePermits() {
    return (int) (long) guard.call(handle::availablePermits);
  }

  /**
   * Sets the permits when the semaphore does not exist yet (never set, or
   * vanished); false when it did.
   */
  public boolean trySetPermits(int permits) {
    return guard.call(() -> handle.trySetPermits(permits));
  }

  /** Frees the native handle (the client is closing). */
  void free() {
    handle.delete();
  }

  @Override
  public String toString() {
    return "DSemaphore[" + name + "]";
  }
}
