package io.dlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A distributed, reentrant, fenced lock on Redis, owned by Java threads.
 *
 * <p>The lock uses Redisson's RLock layout, so a Redisson {@code RLock} of the
 * same name excludes it and is excluded by it. The owner of a hold is the
 * acquiring thread ({@link Thread#getId()}); holds are counted, and
 * {@link #unlock()} by any other thread throws {@link IllegalMonitorStateException},
 * as {@link java.util.concurrent.locks.ReentrantLock} does.
 *
 * <p>Leases: without a lease time the hold is kept alive by the client's
 * watchdog until unlocked; with one, it ends after that time unless unlocked
 * before. A lease time of -1 means the watchdog, as in Redisson.
 *
 * <p>Waits park in Java, never inside native code: a virtual thread waiting
 * for the lock unmounts from its carrier. The {@code ...Async} methods return
 * at once; stages attached to their futures run on the client's callback
 * executor, never on dlock's own thread. Since a future's continuation may run
 * on any thread, each has a variant taking the owner's thread id explicitly,
 * as Redisson's do.
 *
 * <p>Obtain one from {@link DLockClient#getLock(String)}; it is valid until the
 * client is closed, after which every method throws {@link IllegalStateException}.
 * Failures reaching Redis throw {@link DLockException}. A DLock that nothing
 * refers to and that no thread holds gives its native handle back, so locking
 * many distinct names costs memory only for the locks in use.
 */
public final class DLock implements Lock {
  static final long WATCHDOG_LEASE = -1;
  static final long WAIT_FOREVER = -1;

  private final String name;
  private final NativeLock handle;
  private final HandleGuard guard;
  private final KeptWhileHeld keeper;
  private final LockFutures futures;
  private final Executor callbacks;
  private final LostListenerBridge lostBridge = new LostListenerBridge();
  private final Natives natives;
  private boolean lostBridgeRegistered;

  /** {@code kept}: the client's set of DLocks kept from the collector while held. */
  DLock(String name, NativeLock handle, HandleGuard guard, Executor callbacks, Set<DLock> kept) {
    this.name = name;
    this.handle = handle;
    this.guard = guard;
    this.keeper = new KeptWhileHeld(this, kept, handle, guard);
    this.futures = new LockFutures(handle, guard, callbacks, keeper);
    this.callbacks = callbacks;
    this.natives = new Natives(handle, lostBridge);
  }

  /** The native half of a DLock: what a Cleaner frees once the DLock is unreachable. */
  static final class Natives {
    private final NativeLock handle;
    private final LostListenerBridge lostBridge;
    private final AtomicBoolean freed = new AtomicBoolean();

    Natives(NativeLock handle, LostListenerBridge lostBridge) {
      this.handle = handle;
      this.lostBridge = lostBridge;
    }

    /** Frees the handle, then its callback; later calls do nothing. */
    void free() {
      if (freed.compareAndSet(false, true)) {
        handle.delete();
        lostBridge.delete();
      }
    }
  }

  Natives natives() {
    return natives;
  }

  public String getName() {
    return name;
  }

  /** Adds this lock's native handle to a MultiLock or RedLock being made (IllegalStateException once closed). */
  void addTo(NativeLockGroup group) {
    guard.run(() -> group.add(handle));
  }

  /** The client's callback executor, where the stages of its futures run. */
  Executor callbacks() {
    return callbacks;
  }

  /** Waits for the lock, ignoring interrupts; the watchdog keeps the hold alive. */
  @Override
  public void lock() {
    lock(WATCHDOG_LEASE, TimeUnit.MILLISECONDS);
  }

  /** Waits for the lock, ignoring interrupts; the hold ends after {@code leaseTime}. */
  public void lock(long leaseTime, TimeUnit unit) {
    long leaseMs = leaseMillis(leaseTime, unit);
    long owner = currentOwner();
    keeper.around(() -> {
      if (!VirtualThreads.isCurrentVirtual()) {
        guard.run(() -> handle.acquire(owner, WAIT_FOREVER, leaseMs, null));
      } else if (!attemptBeforeWait(owner, leaseMs)) {
        guard.call(() -> PendingAcquire.start(handle, owner, WAIT_FOREVER, leaseMs)).awaitUninterruptibly();
      }
      return null;
    });
  }

  /** Waits for the lock until it is held or the thread is interrupted. */
  @Override
  public void lockInterruptibly() throws InterruptedException {
    acquireInterruptibly(WAIT_FOREVER, WATCHDOG_LEASE);
  }

  /** Waits for the lock until held or interrupted; the hold ends after {@code leaseTime}. */
  public void lockInterruptibly(long leaseTime, TimeUnit unit) throws InterruptedException {
    acquireInterruptibly(WAIT_FOREVER, leaseMillis(leaseTime, unit));
  }

  /** One attempt, no waiting. */
  @Override
  public boolean tryLock() {
    return attempt(currentOwner(), WATCHDOG_LEASE);
  }

  /** Waits at most {@code time} (0 or less: one attempt). */
  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    return acquireInterruptibly(waitMillis(time, unit), WATCHDOG_LEASE);
  }

  /** Waits at most {@code waitTime}; the hold ends after {@code leaseTime} (-1: watchdog). */
  public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit)
      throws InterruptedException {
    return acquireInterruptibly(waitMillis(waitTime, unit), leaseMillis(leaseTime, unit));
  }

  /** {@link #lock()}, as a hold to close with try-with-resources. */
  public LockHold acquire() {
    lock();
    return new LockHold(this, getFencingToken());
  }

  /** {@link #lock(long, TimeUnit)}, as a hold to close with try-with-resources. */
  public LockHold acquire(long leaseTime, TimeUnit unit) {
    lock(leaseTime, unit);
    return new LockHold(this, getFencingToken());
  }

  /**
   * {@link #tryLock(long, TimeUnit)}, as a hold to close with try-with-resources;
   * null when the wait ran out (try-with-resources skips closing a null).
   */
  public LockHold tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException {
    return tryAcquire(waitTime, WATCHDOG_LEASE, unit);
  }

  /** {@link #tryLock(long, long, TimeUnit)}, as a hold; null when the wait ran out. */
  public LockHold tryAcquire(long waitTime, long leaseTime, TimeUnit unit)
      throws InterruptedException {
    return tryLock(waitTime, leaseTime, unit) ? new LockHold(this, getFencingToken()) : null;
  }

  /** {@link #lock()} without blocking: the future completes once the calling thread holds it. */
  public CompletableFuture<Void> lockAsync() {
    return lockAsync(WATCHDOG_LEASE, TimeUnit.MILLISECONDS, currentOwner());
  }

  /** {@link #lockAsync()} for the owner {@code threadId}. */
  public CompletableFuture<Void> lockAsync(long threadId) {
    return lockAsync(WATCHDOG_LEASE, TimeUnit.MILLISECONDS, threadId);
  }

  /** {@link #lock(long, TimeUnit)} without blocking. */
  public CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit) {
    return lockAsync(leaseTime, unit, currentOwner());
  }

  /**
   * {@link #lock(long, TimeUnit)} without blocking, for the owner {@code threadId}.
   * Cancelling the future ends the wait; a grant that raced the cancellation is
   * released.
   */
  public CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit, long threadId) {
    return futures.acquire(threadId, leaseMillis(leaseTime, unit));
  }

  /** {@link #tryLock()} without blocking. */
  public CompletableFuture<Boolean> tryLockAsync() {
    return tryLockAsync(currentOwner());
  }

  /** {@link #tryLock()} without blocking, for the owner {@code threadId}. */
  public CompletableFuture<Boolean> tryLockAsync(long threadId) {
    return futures.tryAcquire(threadId, 0, WATCHDOG_LEASE);
  }

  /** {@link #tryLock(long, TimeUnit)} without blocking. */
  public CompletableFuture<Boolean> tryLockAsync(long waitTime, TimeUnit unit) {
    return tryLockAsync(waitTime, WATCHDOG_LEASE, unit, currentOwner());
  }

  /** {@link #tryLock(long, long, TimeUnit)} without blocking. */
  public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit) {
    return tryLockAsync(waitTime, leaseTime, unit, currentOwner());
  }

  /**
   * {@link #tryLock(long, long, TimeUnit)} without blocking, for the owner
   * {@code threadId}: true when held, false when the wait ran out. Cancelling
   * the future ends the wait; a grant that raced the cancellation is released.
   */
  public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit,
      long threadId) {
    return futures.tryAcquire(threadId, waitMillis(waitTime, unit), leaseMillis(leaseTime, unit));
  }

  /**
   * Releases one hold of the calling thread; the last one frees the lock and
   * wakes a waiter.
   *
   * @throws IllegalMonitorStateException when the calling thread holds nothing
   * @throws LockLostException when its hold had been lost (the hold is forgotten;
   *     the new holder's hold is untouched); {@link LockExpiredException}, a
   *     subclass, when its fixed lease had run out as asked (an expiry, not a loss)
   */
  @Override
  public void unlock() {
    long owner = currentOwner();
    keeper.around(() -> guard.call(() -> {
      handle.release(owner);
      return null;
    }));
  }

  /**
   * Ends the calling thread's hold but keeps the lock taken for {@code keep}
   * more, as a fixed lease that nothing renews: it then lapses on its own, and
   * until it does nobody acquires the lock, this thread included. For
   * once-per-period jobs: keep the lock after a success until the period ends.
   * The hold leaves this client at once (it is no longer held by the thread).
   *
   * @throws IllegalMonitorStateException when the calling thread holds nothing
   * @throws LockLostException when its hold had been lost (the hold is forgotten)
   * @throws IllegalArgumentException when {@code keep} is not positive
   * @throws DLockException with {@link DLockStatus#INVALID} when the thread holds
   *     the lock more than once (only an outermost hold can be kept)
   */
  public void unlockKeeping(long keep, TimeUnit unit) {
    long keepMs = positiveMillis(keep, unit, "keep");
    long owner = currentOwner();
    keeper.around(() -> guard.call(() -> {
      handle.releaseKeeping(owner, keepMs);
      return null;
    }));
  }

  /** Who holds the lock, its remaining lease and last fencing token, read in one round trip. */
  public LockInfo inspect() {
    return guard.call(() -> {
      NativeLockInfo snapshot = handle.inspect();
      try {
        List<LockInfo.Holder> holders = new ArrayList<>();
        for (int i = 0; i < snapshot.holderCount(); i++) {
          holders.add(new LockInfo.Holder(snapshot.holderId(i), snapshot.holderHoldCount(i)));
        }
        OptionalLong token = snapshot.hasLastToken()
            ? OptionalLong.of(snapshot.lastToken()) : OptionalLong.empty();
        return new LockInfo(holders, snapshot.ttlMs(), token);
      } finally {
        snapshot.delete();
      }
    });
  }

  /**
   * Counts one more attempt at a job in the period {@code periodId} (shared by
   * every client, e.g. the period's start), unless {@code maxAttempts} were
   * counted already. A new period's counter lapses {@code expiresIn} after its
   * first attempt, e.g. at the period's end. Best called while holding the lock.
   *
   * @return this attempt's number, 1 to {@code maxAttempts}; 0 when the limit
   *     was reached (nothing counted)
   */
  public long countAttempt(String periodId, long expiresIn, TimeUnit unit, long maxAttempts) {
    Objects.requireNonNull(periodId, "periodId");
    long expireMs = positiveMillis(expiresIn, unit, "expiresIn");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    return guard.call(() -> handle.countAttempt(periodId, expireMs, maxAttempts));
  }

  /** {@link #unlock()} without blocking; fails as unlock() throws. */
  public CompletableFuture<Void> unlockAsync() {
    return unlockAsync(currentOwner());
  }

  /** {@link #unlock()} without blocking, for the owner {@code threadId}. */
  public CompletableFuture<Void> unlockAsync(long threadId) {
    return futures.release(threadId);
  }

  /**
   * Sets the remaining lease of the calling thread's fixed-lease hold to
   * {@code leaseTime} from now (one round trip).
   *
   * @throws IllegalMonitorStateException when the calling thread holds nothing
   * @throws LockLostException when its hold had been lost ({@link
   *     LockExpiredException} when its lease had run out)
   * @throws DLockException INVALID for a hold the watchdog keeps alive
   */
  public void extend(long leaseTime, TimeUnit unit) {
    long leaseMs = leaseMillis(leaseTime, unit);
    long owner = currentOwner();
    guard.run(() -> handle.extend(owner, leaseMs));
  }

  /**
   * Frees the lock whoever holds it; the former holder learns of it as a lost
   * hold. Returns whether it was held (false: it was free), as Redisson's does.
   */
  public boolean forceUnlock() {
    return guard.call(handle::forceRelease);
  }

  /** Whether anyone holds the lock (one round trip). */
  public boolean isLocked() {
    return guard.call(handle::isLocked);
  }

  /** Whether the calling thread holds the lock and it is not known to be lost. */
  public boolean isHeldByCurrentThread() {
    long owner = currentOwner();
    return guard.call(() -> handle.isHeld(owner));
  }

  /** Whether the thread {@code threadId} holds the lock and it is not known to be lost. */
  public boolean isHeldByThread(long threadId) {
    return guard.call(() -> handle.isHeld(threadId));
  }

  /** The calling thread's number of holds (0 when it holds none). */
  public int getHoldCount() {
    long owner = currentOwner();
    return guard.call(() -> handle.holdCount(owner));
  }

  /** Remaining lease of whoever holds it, in ms; -2 when not locked, -1 without expiry. */
  public long remainTimeToLive() {
    return guard.call(handle::ttl);
  }

  /**
   * The fencing token of the calling thread's current hold. Tokens strictly
   * increase over successive grants of a name, across processes and languages
   * (Redisson's RFencedLock included); re-entering returns the same token.
   *
   * @throws IllegalMonitorStateException when the calling thread holds nothing
   */
  public long getFencingToken() {
    long owner = currentOwner();
    return guard.call(() -> handle.fencingToken(owner));
  }

  /** Sets (or, with null, clears) the listener told when a hold of this lock is lost. */
  public synchronized void setLostListener(LockLostListener listener) {
    lostBridge.setListener(listener);
    if (!lostBridgeRegistered && listener != null) {
      guard.run(() -> handle.setLostCallback(lostBridge));
      lostBridgeRegistered = true;
    }
  }

  /** Conditions cannot be distributed this way. */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("DLock does not support conditions");
  }

  @Override
  public String toString() {
    return "DLock[" + name + "]";
  }

  /** Frees the native handle; the client calls it once no call is in flight. */
  void free() {
    natives.free();
  }

  private boolean acquireInterruptibly(long waitMs, long leaseMs) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    return keeper.around(() -> waitInterruptibly(waitMs, leaseMs));
  }

  private boolean waitInterruptibly(long waitMs, long leaseMs) throws InterruptedException {
    long owner = currentOwner();
    if (waitMs != 0 && !VirtualThreads.isCurrentVirtual()) {
      return guard.call(() -> InterruptibleWait.acquire(handle, owner, waitMs, leaseMs));
    }
    if (waitMs == 0) {
      return attempt(owner, leaseMs);
    }
    if (attemptBeforeWait(owner, leaseMs)) {
      return true;
    }
    return guard.call(() -> PendingAcquire.start(handle, owner, waitMs, leaseMs)).awaitInterruptibly();
  }

  /**
   * One attempt on the calling thread: a round trip that never waits for a
   * holder, so a virtual thread pins its carrier no longer than that. It
   * barges, as ReentrantLock.tryLock() does.
   */
  private boolean attempt(long owner, long leaseMs) {
    return keeper.around(() -> guard.call(() -> handle.acquire(owner, 0, leaseMs, null)));
  }

  /**
   * As attempt(), as the first of the wait that follows, so an uncontended
   * acquire costs no thread hop; it respects the waiters' turn, so it never
   * overtakes the waiter a release named.
   */
  private boolean attemptBeforeWait(long owner, long leaseMs) {
    return keeper.around(() -> guard.call(() -> handle.tryBeforeWait(owner, leaseMs)));
  }

  /** Owners are Java threads, whatever OS thread runs the native call. */
  static long currentOwner() {
    return Thread.currentThread().getId();
  }

  static long waitMillis(long time, TimeUnit unit) {
    Objects.requireNonNull(unit, "unit");
    return time <= 0 ? 0 : Math.max(1, unit.toMillis(time));
  }

  static long leaseMillis(long leaseTime, TimeUnit unit) {
    Objects.requireNonNull(unit, "unit");
    if (leaseTime == WATCHDOG_LEASE) {
      return WATCHDOG_LEASE;
    }
    if (leaseTime <= 0) {
      throw new IllegalArgumentException(
          "leaseTime must be > 0, or -1 for a lease kept alive by the watchdog: " + leaseTime);
    }
    return Math.max(1, unit.toMillis(leaseTime));
  }

  private static long positiveMillis(long time, TimeUnit unit, String what) {
    Objects.requireNonNull(unit, "unit");
    if (time <= 0) {
      throw new IllegalArgumentException(what + " must be > 0: " + time);
    }
    return Math.max(1, unit.toMillis(time));
  }
}
