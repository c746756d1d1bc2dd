package io.dlock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A semaphore of leased permits on Redis, in Redisson's
 * RPermitExpirableSemaphore layout: a Redisson {@code RPermitExpirableSemaphore}
 * of the same name shares its permits, releases either side's permits by id,
 * and its releases wake waiters here (and ours wake its waiters).
 *
 * <p>Each permit has an id (32 hex digits) and a lease. A permit taken without
 * a lease (or with -1) is kept alive by the client's watchdog until released,
 * like a lock; a permit whose holder died returns to the pool when its lease
 * ends. Losing a permit is never silent: the {@link PermitLostListener} is
 * told once, and {@link #release(String)} throws {@link LockLostException}.
 * Obtain one from {@link DLockClient#getPermitExpirableSemaphore(String)}.
 *
 * <p>Waits park in Java on a virtual thread (it unmounts from its carrier),
 * and the {@code ...Async} methods return a {@link CompletableFuture} that no
 * thread waits for (stages run on the client's callback executor); cancelling
 * one cancels the wait, and a permit that raced the cancellation is released.
 */
public final class DPermitExpirableSemaphore {
  private static final long WATCHDOG_LEASE = -1;

  private final String name;
  private final NativePermitSemaphore handle;
  private final HandleGuard guard;
  private final Executor callbacks;
  private final Bridge bridge = new Bridge();

  DPermitExpirableSemaphore(String name, NativePermitSemaphore handle, HandleGuard guard, Executor callbacks) {
    this.name = name;
    this.handle = handle;
    this.guard = guard;
    this.callbacks = callbacks;
    handle.setLostCallback(bridge);
  }

  public String getName() {
    return name;
  }

  /** Takes a permit, waiting as long as it takes; the watchdog renews its lease. */
  public String acquire() throws InterruptedException {
    return take(DLock.WAIT_FOREVER, WATCHDOG_LEASE);
  }

  /** Takes a permit, waiting as long as it takes; its lease ends after {@code leaseTime}. */
  public String acquire(long leaseTime, TimeUnit unit) throws InterruptedException {
    return take(DLock.WAIT_FOREVER, DLock.leaseMillis(leaseTime, unit));
  }

  /** One attempt; null when no permit is free. */
  public String tryAcquire() {
    return guard.call(() -> handle.acquire(0, WATCHDOG_LEASE, null));
  }

  /** Waits at most {@code waitTime}; null when no permit came. The watchdog renews its lease. */
  public String tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException {
    return take(DLock.waitMillis(waitTime, unit), WATCHDOG_LEASE);
  }

  /**
   * Waits at most {@code waitTime} for a permit whose lease ends after
   * {@code leaseTime} (-1: renewed by the watchdog); null when none came.
   */
  public String tryAcquire(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
    return take(DLock.waitMillis(waitTime, unit), DLock.leaseMillis(leaseTime, unit));
  }

  /** {@link #acquire()} without blocking: completes with the permit's id. */
  public CompletableFuture<String> acquireAsync() {
    return takeAsync(DLock.WAIT_FOREVER, WATCHDOG_LEASE);
  }

  /** {@link #acquire(long, TimeUnit)} without blocking: completes with the permit's id. */
  public CompletableFuture<String> acquireAsync(long leaseTime, TimeUnit unit) {
    return takeAsync(DLock.WAIT_FOREVER, DLock.leaseMillis(leaseTime, unit));
  }

  /** {@link #tryAcquire(long, TimeUnit)} without blocking: the permit's id, null when none came. */
  public CompletableFuture<String> tryAcquireAsync(long waitTime, TimeUnit unit) {
    return takeAsync(DLock.waitMillis(waitTime, unit), WATCHDOG_LEASE);
  }

  /** {@link #tryAcquire(long, long, TimeUnit)} without blocking. */
  public CompletableFuture<String> tryAcquireAsync(long waitTime, long leaseTime, TimeUnit unit) {
    return takeAsync(DLock.waitMillis(waitTime, unit), DLock.leaseMillis(leaseTime, unit));
  }

  private String take(long waitMs, long leaseMs) throws InterruptedException {
    return NativeWaits.interruptibly(cancel -> guard.call(() -> handle.acquire(waitMs, leaseMs, cancel)), taken -> true, null,
        start(waitMs, leaseMs), DPermitExpirableSemaphore::permitId);
  }

  private CompletableFuture<String> takeAsync(long waitMs, long leaseMs) {
    return NativeWaits.future(callbacks, start(waitMs, leaseMs), DPermitExpirableSemaphore::permitId,
        granted -> tryRelease(granted.permitId()));
  }

  private Supplier<PendingAcquire> start(long waitMs, long leaseMs) {
    return () -> PendingAcquire.start(
        (cancel, callback, call) -> guard.run(() -> handle.acquireAsync(waitMs, leaseMs, cancel, callback, call)));
  }

  /** The permit's id, null when the wait ran out; throws the outcome's error. */
  private static String permitId(NativeOutcome outcome) {
    return outcome.acquiredOrThrow() ? outcome.permitId() : null;
  }

  /**
   * Releases the permit {@code permitId}, taken here or by another process.
   *
   * @throws LockLostException this client held it, but it was lost; {@link
   *     LockExpiredException}, a subclass, when its fixed lease ran out as asked
   * @throws IllegalArgumentException no such permit is held (as Redisson says)
   */
  public void release(String permitId) {
    requireId(permitId);
    try {
      guard.run(() -> handle.releasePermit(permitId));
    } catch (IllegalMonitorStateException notHeld) {
      throw new IllegalArgumentException(
          "Permit with id " + permitId + " has already been released or doesn't exist", notHeld);
    }
  }

  /** As {@link #release(String)}, answering false for a permit that is not held. */
  public boolean tryRelease(String permitId) {
    requireId(permitId);
    return guard.call(() -> handle.tryRelease(permitId));
  }

  /** The permits available now, after returning those whose lease ended. */
  public int availablePermits() {
    return (int) (long) guard.call(handle::availablePermits);
  }

  /** Sets the permits when the semaphore does not exist yet; false when it did. */
  public boolean trySetPermits(int permits) {
    return guard.call(() -> handle.trySetPermits(permits));
  }

  /** Sets (or with null clears) the listener told of lost permits. */
  public void setLostListener(PermitLostListener listener) {
    bridge.listener = listener;
  }

  private static void requireId(String permitId) {
    if (permitId == null) {
      throw new IllegalArgumentException("permitId can't be null");
    }
  }

  /** Frees the native handle (the client is closing). */
  void free() {
    handle.delete();
  }

  @Override
  public String toString() {
    return "DPermitExpirableSemaphore[" + name + "]";
  }

  /** The SWIG director the core calls back on a lost permit; registered once. */
  private static final class Bridge extends NativePermitLostCallback {
    private static final System.Logger LOG = System.getLogger("io.dlock");

    volatile PermitLostListener listener;

    @Override
    public void lost(String semaphoreName, String permitId) {
      PermitLostListener current = listener;
      if (current == null) {
        return;
      }
      try {
        current.permitLost(semaphoreName, permitId);
      } catch (Throwable thrown) {
        // Nothing may propagate into the native watchdog thread.
        LOG.log(System.Logger.Level.ERROR,
            "dlock: the lost-permit listener of '" + semaphoreName + "' threw", thrown);
      }
    }
  }
}
