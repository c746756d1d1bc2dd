package io.dlock;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A candidate for the leadership of a name: one leader at a time among the
 * candidates of that name, across processes, machines and languages (the
 * Python and C candidates of the same name compete with it).
 *
 * <pre>{@code
 * try (DElection election = client.getElection("billing")) {
 *   election.setLostListener((name, term) -> stopWork());
 *   long term = election.campaign("host-a:8080");   // blocks until leader
 *   doWork(term);                                    // the term fences writes
 *   election.resign();                               // the next candidate leads at once
 * }
 * }</pre>
 *
 * <p>Each leader gets a term: a fencing token that only grows, which the
 * resource it drives can check. The leadership is a lock kept alive by the
 * client's watchdog: a leader whose process dies is replaced once its lease
 * runs out, and one that is paused or cut off is told it lost (the
 * {@link LeadershipLostListener}, {@link #isLeader()} turning false) before
 * another candidate can be granted. The candidate is this object, not a
 * thread: any thread may campaign, resign or proclaim for it; it campaigns for
 * one leadership at a time.
 *
 * <p>Waits park in Java on a virtual thread (it unmounts from its carrier),
 * as {@link DLock}'s do; {@link #campaignAsync(String)} returns a future that
 * no thread waits for, whose stages run on the client's callback executor.
 * Observers ({@link #observe(Consumer)}, {@link #leaders()}) share one
 * native observer per DElection and are called on that executor too.
 *
 * <p>Obtain one from {@link DLockClient#getElection(String)}: every call makes
 * a new candidate. {@link #close()} resigns if it leads and frees it; after
 * it, or after the client's close, every method throws
 * {@link IllegalStateException}. Errors as for locks: {@link DLockException}
 * (CONNECTION, INVALID...), {@link IllegalMonitorStateException} for what only
 * a leader may do, {@link LockLostException} for a leadership that was lost.
 */
public final class DElection implements AutoCloseable {
  /** What {@link #campaign(String, long, TimeUnit)} returns when the wait ran out: no term. */
  public static final long NOT_ELECTED = -1;

  private final String name;
  private final NativeElection handle;
  /** The client's guard: its close frees this handle once no call is in flight. */
  private final HandleGuard clientGuard;
  /** This handle's own guard, for {@link #close()}. */
  private final HandleGuard guard = new HandleGuard("the DElection is closed");
  private final WaitsInFlight waits = new WaitsInFlight();
  private final Executor callbacks;
  /** The client's open elections, which this one leaves when it closes. */
  private final Set<DElection> open;
  private final LostListenerBridge lostBridge = new LostListenerBridge();
  private final LeaderFanOut fanOut;
  private final AtomicBoolean freed = new AtomicBoolean();
  // Guarded by this.
  private boolean lostBridgeRegistered;
  private boolean observing;

  DElection(String name, NativeElection handle, HandleGuard clientGuard, Executor callbacks, Set<DElection> open) {
    this.name = name;
    this.handle = handle;
    this.clientGuard = clientGuard;
    this.callbacks = callbacks;
    this.open = open;
    this.fanOut = new LeaderFanOut(name, callbacks);
  }

  public String getName() {
    return name;
  }

  /**
   * Becomes leader, publishing {@code value}, waiting as long as another
   * candidate leads. A candidate that leads already gets its term again (its
   * value unchanged: {@link #proclaim(String)} changes it).
   *
   * @param value what the leader publishes to every client ({@link #leader()}):
   *     0 to 1024 bytes of UTF-8, e.g. its address; "" for nothing
   * @return the term of this leadership
   * @throws InterruptedException the thread was interrupted while waiting
   *     (the wait is cancelled; a grant that won the race is kept, the flag set again)
   * @throws IllegalStateException the election or the client was closed
   * @throws DLockException INVALID for a value over 1024 bytes
   */
  public long campaign(String value) throws InterruptedException {
    long term = await(value, DLock.WAIT_FOREVER);
    if (term == NOT_ELECTED) {
      // Only a close ends a wait without a bound and without an interrupt.
      throw guard.closedError();
    }
    return term;
  }

  /**
   * {@link #campaign(String)}, waiting at most {@code time} (0 or less: one attempt).
   *
   * @return the term, or {@link #NOT_ELECTED} (-1) when the wait ran out
   */
  public long campaign(String value, long time, TimeUnit unit) throws InterruptedException {
    return await(value, DLock.waitMillis(time, unit));
  }

  /**
   * {@link #campaign(String)} without blocking: completes with the term.
   * Cancelling the future cancels the wait; a leadership granted in a race
   * with the cancellation is resigned, so a cancelled future leaves no leader.
   */
  public CompletableFuture<Long> campaignAsync(String value) {
    return campaignAsync(value, DLock.WAIT_FOREVER);
  }

  /**
   * {@link #campaign(String, long, TimeUnit)} without blocking: completes with
   * the term, or {@link #NOT_ELECTED} when the wait ran out.
   */
  public CompletableFuture<Long> campaignAsync(String value, long time, TimeUnit unit) {
    return campaignAsync(value, DLock.waitMillis(time, unit));
  }

  /**
   * Gives the leadership up at once: the next waiting candidate is granted
   * without waiting for a lease.
   *
   * @throws IllegalMonitorStateException this candidate does not lead (nothing touched)
   * @throws LockLostException its leadership had been lost meanwhile
   */
  public void resign() {
    call(() -> {
      handle.stepDown();
      return null;
    });
  }

  /**
   * Publishes a new value for this leader's term (no new term): {@link
   * #leader()} and the observers see it.
   *
   * @throws IllegalMonitorStateException this candidate does not lead
   * @throws DLockException INVALID for a value over 1024 bytes
   */
  public void proclaim(String value) {
    call(() -> {
      handle.publish(value);
      return null;
    });
  }

  /** The current leader, as the server has it, whoever it is (one round trip); empty when nobody leads. */
  public Optional<Leader> leader() {
    return call(() -> {
      NativeLeader answer = handle.readLeader();
      try {
        return answer.present()
            ? Optional.of(Leader.of(answer.leaderValue(), answer.term(), answer.sinceMs()))
            : Optional.empty();
      } finally {
        answer.delete();
      }
    });
  }

  /** Whether this candidate leads and its term is still valid by the client's deadline. No round trip. */
  public boolean isLeader() {
    return call(handle::leads);
  }

  /**
   * This candidate's term while it leads. No round trip.
   *
   * @throws IllegalMonitorStateException it does not lead
   */
  public long term() {
    return call(handle::currentTerm);
  }

  /**
   * Sets (or, with null, clears) the listener told when this candidate's
   * leadership is lost, before another candidate can be granted.
   */
  public synchronized void setLostListener(LeadershipLostListener listener) {
    lostBridge.setListener(listener == null ? null : (lockName, owner, term) -> listener.leadershipLost(name, term));
    if (!lostBridgeRegistered && listener != null) {
      call(() -> {
        handle.setLostCallback(lostBridge);
        return null;
      });
      lostBridgeRegistered = true;
    }
  }

  /**
   * Calls {@code consumer} with each change of leader of this name, in order,
   * on the client's callback executor: first the current leader (when there
   * is one), then every new term and every proclaimed value, none twice and
   * none missed. A resignation or a lapsed lease is no change: the next
   * leader is. It runs until the election is closed (use {@link #leaders()}
   * for a subscription that can be cancelled); what it throws is logged.
   *
   * @throws IllegalStateException the election or the client is closed
   */
  public void observe(Consumer<? super Leader> consumer) {
    Flow.Subscriber<Leader> subscriber = LeaderFanOut.consuming(name, consumer);
    guard.checkOpen();
    clientGuard.checkOpen();
    subscribe(subscriber);
  }

  /**
   * The changes of leader as a {@link Flow.Publisher}: each subscriber gets
   * the current leader (when there is one), then every change, in order, as
   * it requests them, on the client's callback executor; onComplete once the
   * election closes. One native observer serves every subscriber. A
   * subscriber more than 1024 changes behind its requests is failed.
   */
  public Flow.Publisher<Leader> leaders() {
    return this::subscribe;
  }

  /**
   * Resigns if this candidate leads (one round trip), ends the waits in
   * flight on it (their campaigns throw {@link IllegalStateException}; their
   * futures complete with it), stops its observer (subscribers get
   * onComplete), and frees it. Later calls do nothing.
   */
  @Override
  public void close() {
    if (!guard.shutOut()) {
      return;
    }
    waits.closeAndAwait();
    guard.afterCalls(() -> {}); // every call in flight has returned, and none starts
    try {
      // Under the client's guard, so the client's close never frees this handle twice under it.
      clientGuard.run(this::free);
    } catch (IllegalStateException clientClosed) {
      return; // the client's close frees it
    }
    open.remove(this);
  }

  /** The client has closed (no call on it is in flight or can start): ends the waits, frees the handle. */
  void closeWithClient() {
    guard.shutOut();
    waits.closeAndAwait();
    guard.afterCalls(() -> {});
    free();
  }

  @Override
  public String toString() {
    return "DElection[" + name + "]";
  }

  private long await(String value, long waitMs) throws InterruptedException {
    long term = NativeWaits.interruptibly(
        cancel -> call(() -> waits.blocking(cancel, () -> handle.runCampaign(value, waitMs, cancel))),
        elected -> elected != NOT_ELECTED, NOT_ELECTED, () -> start(value, waitMs), this::termOf);
    if (term == NOT_ELECTED && waits.isClosed()) {
      throw guard.closedError();
    }
    return term;
  }

  private CompletableFuture<Long> campaignAsync(String value, long waitMs) {
    return NativeWaits.future(callbacks, () -> start(value, waitMs), this::termOf, granted -> giveBack(granted.token()));
  }

  private PendingAcquire start(String value, long waitMs) {
    return call(() -> waits.started(() -> PendingAcquire.start(
        (cancel, callback, call) -> handle.campaignAsync(value, waitMs, cancel, callback, call))));
  }

  /** A campaign's outcome: its term, NOT_ELECTED when the wait ran out; else its error. */
  private long termOf(NativeOutcome outcome) {
    if (outcome.status() == NativeStatus.E_INTERRUPTED && waits.isClosed()) {
      throw guard.closedError();
    }
    return outcome.acquiredOrThrow() ? outcome.token() : NOT_ELECTED;
  }

  /** The leadership granted to a future cancelled meanwhile: resigned, unless it was taken up since. */
  private void giveBack(long term) {
    try {
      call(() -> {
        if (handle.leads() && handle.currentTerm() == term) {
          handle.stepDown();
        }
        return null;
      });
    } catch (IllegalStateException closed) {
      // The election or its client is closed, which resigned it.
    }
  }

  private void subscribe(Flow.Subscriber<? super Leader> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    fanOut.subscribe(subscriber, this::leader);
    try {
      startObserving();
    } catch (RuntimeException failed) {
      // Closed meanwhile, or the core refused: the subscribers waiting for it hear why.
      fanOut.failAll(failed);
    }
  }

  /** Starts the one native observer, at the first subscriber (after it joined, so it misses nothing). */
  private synchronized void startObserving() {
    if (!observing) {
      call(() -> {
        handle.follow(fanOut);
        return null;
      });
      observing = true;
    }
  }

  /** A call on the handle: refused once the election or the client is closed. */
  private <T> T call(HandleGuard.Call<T, RuntimeException> body) {
    return clientGuard.call(() -> guard.call(body));
  }

  /**
   * Frees the handle (the core resigns it if it leads and stops its
   * observer), then its callbacks, then completes the subscribers. Later
   * calls do nothing.
   */
  private void free() {
    if (freed.compareAndSet(false, true)) {
      handle.delete();
      lostBridge.delete();
      fanOut.delete();
      fanOut.complete();
    }
  }
}
