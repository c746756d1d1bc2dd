package io.dlock;

import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * What {@link DMultiLock} and {@link DRedLock} share: one lock over several
 * {@link DLock}s, owned by Java threads and re-entrant as they are.
 *
 * <p>The group keeps what it needs of its members: their clients may be closed
 * later (calls then throw {@link IllegalStateException}). {@link #close()}
 * frees the native group and releases the holds still taken through it; an
 * unreachable group is freed the same way by a {@link Cleaner}.
 *
 * <p>Waits are cut short by {@link Thread#interrupt()} in
 * {@link #lockInterruptibly()} and {@code tryLock}. A virtual thread parks in
 * Java while it waits (it unmounts from its carrier), and the {@code ...Async}
 * methods return a {@link CompletableFuture} that no thread waits for: the
 * async thread of the first member's client completes it, its stages run on
 * that client's callback executor, and cancelling it cancels the wait (a
 * grant that raced the cancellation is released).
 */
abstract class DLockGroup implements Lock, AutoCloseable {
  private static final Cleaner CLEANER = Cleaner.create();

  private final NativeLockGroup handle;
  private volatile boolean closed;
  private final String names;
  private final Executor callbacks;
  private final Cleaner.Cleanable cleanable;
  private final LostListenerBridge lostBridge = new LostListenerBridge();
  /** Asynchronous acquires not reported yet: the native group must outlive them. */
  private final Set<PendingAcquire> pending = ConcurrentHashMap.newKeySet();
  private boolean lostBridgeRegistered;

  DLockGroup(boolean majority, DLock... locks) {
    Objects.requireNonNull(locks, "locks");
    for (int i = 0; i < locks.length; i++) {
      Objects.requireNonNull(locks[i], "locks[" + i + "]");
    }
    NativeLockGroup group = new NativeLockGroup(majority);
    try {
      for (DLock lock : locks) {
        lock.addTo(group);
      }
      group.open();
    } catch (RuntimeException e) {
      group.delete();
      throw e;
    }
    this.handle = group;
    this.names = String.join(",", Arrays.stream(locks).map(DLock::getName).toArray(String[]::new));
    this.callbacks = locks[0].callbacks();
    LostListenerBridge bridge = lostBridge;
    this.cleanable = CLEANER.register(this, () -> {
      group.delete();
      bridge.delete();
    });
  }

  /** The members' names, joined by ','. */
  public String getNames() {
    return names;
  }

  /** Waits for every member (a majority for a RedLock), ignoring interrupts; the watchdog keeps them. */
  @Override
  public void lock() {
    lock(DLock.WATCHDOG_LEASE, TimeUnit.MILLISECONDS);
  }

  /** As {@link #lock()}; the holds end after {@code leaseTime} (-1: watchdog). */
  public void lock(long leaseTime, TimeUnit unit) {
    long leaseMs = DLock.leaseMillis(leaseTime, unit);
    long owner = DLock.currentOwner();
    if (VirtualThreads.isCurrentVirtual()) {
      begin(owner, DLock.WAIT_FOREVER, leaseMs).awaitUninterruptibly();
    } else {
      live().acquire(owner, DLock.WAIT_FOREVER, leaseMs, null);
    }
  }

  /** {@link #lock()} without blocking, for the calling thread: completes once held. */
  public CompletableFuture<Void> lockAsync() {
    return lockAsync(DLock.WATCHDOG_LEASE, TimeUnit.MILLISECONDS);
  }

  /** {@link #lock(long, TimeUnit)} without blocking, for the calling thread. */
  public CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit) {
    return acquireAsync(DLock.WAIT_FOREVER, DLock.leaseMillis(leaseTime, unit), NativeWaits::grantedOrThrow);
  }

  /** {@link #tryLock(long, TimeUnit)} without blocking: true held, false the wait ran out. */
  public CompletableFuture<Boolean> tryLockAsync(long time, TimeUnit unit) {
    return acquireAsync(DLock.waitMillis(time, unit), DLock.WATCHDOG_LEASE, NativeOutcome::acquiredOrThrow);
  }

  /** {@link #tryLock(long, long, TimeUnit)} without blocking, for the calling thread. */
  public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit) {
    return acquireAsync(DLock.waitMillis(waitTime, unit), DLock.leaseMillis(leaseTime, unit),
        NativeOutcome::acquiredOrThrow);
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    acquireInterruptibly(DLock.WAIT_FOREVER, DLock.WATCHDOG_LEASE);
  }

  /** One attempt, no waiting. */
  @Override
  public boolean tryLock() {
    return live().acquire(DLock.currentOwner(), 0, DLock.WATCHDOG_LEASE, null);
  }

  /** Waits at most {@code time} (0 or less: one attempt). */
  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    return acquireInterruptibly(DLock.waitMillis(time, unit), DLock.WATCHDOG_LEASE);
  }

  /** Waits at most {@code waitTime}; the holds end after {@code leaseTime} (-1: watchdog). */
  public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
    return acquireInterruptibly(DLock.waitMillis(waitTime, unit), DLock.leaseMillis(leaseTime, unit));
  }

  /**
   * Releases one hold of the calling thread (the outermost releases the members).
   *
   * @throws IllegalMonitorStateException when the calling thread holds nothing
   * @throws LockLostException when the hold had been lost (the members still
   *     held are released all the same)
   */
  @Override
  public void unlock() {
    live().release(DLock.currentOwner());
  }

  /** The calling thread's number of holds (0 when it holds none). */
  public int getHoldCount() {
    return live().holdCount(DLock.currentOwner());
  }

  /**
   * Whether the calling thread holds the group and its hold is still valid:
   * false once it is lost, or once a fixed lease (a RedLock: its validity) has
   * run out, as {@link DLock#isHeldByCurrentThread()}.
   */
  public boolean isHeldByCurrentThread() {
    return live().isHeld(DLock.currentOwner());
  }

  /**
   * Sets (or, with null, clears) the listener told once when a hold is lost;
   * it gets the members' names joined by ',' and token 0.
   */
  public synchronized void setLostListener(LockLostListener listener) {
    lostBridge.setListener(listener);
    if (!lostBridgeRegistered && listener != null) {
      live().setLostCallback(lostBridge);
      lostBridgeRegistered = true;
    }
  }

  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not support conditions");
  }

  /**
   * Frees the native group, releasing the holds still taken through it. Waits
   * in progress through the asynchronous call (futures, virtual threads) are
   * cancelled first, and their outcomes awaited: the core reports to the group.
   */
  @Override
  public void close() {
    closed = true;
    for (PendingAcquire wait : pending) {
      wait.cancelWait();
      wait.outcome().join();
    }
    cleanable.clean();
  }

  /** The native group; IllegalStateException once closed. */
  NativeLockGroup live() {
    if (closed) {
      throw new IllegalStateException(getClass().getSimpleName() + " [" + names + "] is closed");
    }
    return handle;
  }

  private boolean acquireInterruptibly(long waitMs, long leaseMs) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    long owner = DLock.currentOwner();
    if (waitMs == 0) {
      return live().acquire(owner, 0, leaseMs, null);
    }
    return NativeWaits.interruptibly(cancel -> live().acquire(owner, waitMs, leaseMs, cancel),
        acquired -> acquired, false, () -> begin(owner, waitMs, leaseMs), NativeOutcome::acquiredOrThrow);
  }

  private <T> CompletableFuture<T> acquireAsync(long waitMs, long leaseMs, Function<NativeOutcome, T> result) {
    long owner = DLock.currentOwner();
    // The group stays reachable until the outcome: the give-back holds it.
    return NativeWaits.future(callbacks, () -> begin(owner, waitMs, leaseMs), result,
        granted -> live().release(owner));
  }

  /** Starts an asynchronous acquire, counted in {@link #pending} until its outcome. */
  private PendingAcquire begin(long owner, long waitMs, long leaseMs) {
    PendingAcquire wait = PendingAcquire.start(
        (cancel, callback, call) -> live().acquireAsync(owner, waitMs, leaseMs, cancel, callback, call));
    pending.add(wait);
    wait.outcome().whenComplete((outcome, never) -> pending.remove(wait));
    return wait;
  }
}
