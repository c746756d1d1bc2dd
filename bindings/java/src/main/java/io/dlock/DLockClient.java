package io.dlock;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A connection to Redis that hands out distributed locks.
 *
 * <pre>{@code
 * try (DLockClient client = DLockClient.connect("redis://127.0.0.1:6379")) {
 *   DLock lock = client.getLock("orders:42");
 *   lock.lock();
 *   try {
 *     // critical section
 *   } finally {
 *     lock.unlock();
 *   }
 * }
 * }</pre>
 *
 * <p>Thread-safe. One watchdog thread per client renews every lock it holds.
 * {@link #close()} releases the locks the client still holds and wakes its
 * waiters; afterwards every call on the client and its locks throws
 * {@link IllegalStateException}. Clients still open when the JVM shuts down
 * are closed by a shutdown hook, so the locks they hold are released.
 */
public final class DLockClient implements AutoCloseable {
  static {
    // The core's log records go to System.Logger "io.dlock" from the first client on.
    LogBridge.install();
  }

  private final NativeClient handle;
  private final HandleGuard guard = new HandleGuard();
  private final LockHandles locks = new LockHandles();
  private final PrimitiveHandles primitives = new PrimitiveHandles();
  private final LockHandles fairLocks = new LockHandles();
  private final LockHandles nonReentrantLocks = new LockHandles();
  /** DLocks a hold is taken through: never collected (see KeptWhileHeld). */
  private final Set<DLock> heldLocks = ConcurrentHashMap.newKeySet();
  /** The elections not yet closed: this client's close frees them. */
  private final Set<DElection> elections = ConcurrentHashMap.newKeySet();
  private final Executor callbacks;
  private final String backend;

  private DLockClient(NativeClient handle, Executor callbacks) {
    this.handle = handle;
    this.callbacks = callbacks;
    this.backend = handle.backendName();
  }

  static DLockClient open(NativeClient handle, Executor callbacks) {
    DLockClient client = new DLockClient(handle, callbacks);
    OpenClients.add(client);
    return client;
  }

  /**
   * Connects and checks the connection (and credentials) before returning.
   *
   * @param url {@code redis://[user[:password]@]host[:port][,host[:port]...][/db][?options]}
   *     (several hosts: seeds of a Redis Cluster, found by itself) or
   *     {@code unix:///path/to/redis.sock[?db=N&options]}; options are
   *     {@code connect_timeout_ms}, {@code command_timeout_ms},
   *     {@code watchdog_timeout_ms} (lease kept alive by the watchdog, default
   *     30000) and {@code pool_size}; or
   *     {@code zookeeper://host:port[,host:port...][/chroot][?session_timeout_ms=N]}:
   *     locks in Curator's layouts, held for the session's life (no fixed
   *     leases; docs/zookeeper.md)
   * @throws DLockException INVALID for a malformed URL, CONNECTION when the
   *     server is unreachable, AUTH when it refuses the credentials, UNSUPPORTED
   *     for a {@code postgresql://} ({@code postgres://}) or {@code mysql://}
   *     URL: backends this build does not have
   */
  public static DLockClient connect(String url) {
    Objects.requireNonNull(url, "url");
    return open(new NativeClient(url), DLockClientBuilder.DEFAULT_CALLBACKS);
  }

  /** Options beside the URL: timeouts, pool size, the executor futures complete on. */
  public static DLockClientBuilder builder() {
    return new DLockClientBuilder();
  }

  /** The version of the native dlock library inside this jar. */
  public static String nativeVersion() {
    return DLockNative.version();
  }

  /**
   * The lock named {@code name} (1 to 1024 bytes of UTF-8; a name containing
   * '{' must contain a non-empty hash tag such as "job{42}"). Makes no round
   * trip. The same name gives the same DLock as long as anything refers to it
   * or a thread holds it; one nothing refers to and nobody holds is collected
   * with its native handle, so locking a million distinct names one after the
   * other keeps memory flat.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DLock getLock(String name) {
    return lockIn(locks, name, handle::newLock);
  }

  /**
   * The fair lock named {@code name} (names as for {@link #getLock}): a
   * {@link DLock} whose waiters are served first come, first served by their
   * arrival at the server; a release hands it to the longest waiter and wakes
   * that waiter alone. {@code tryLock()} succeeds only when the lock is free
   * and nobody waits. It shares Redisson's lock hash, so it excludes
   * {@code RLock}, {@code RFairLock} and dlock's reentrant lock on the same
   * name; the queue is dlock's own. Makes no round trip; names give DLocks
   * as {@link #getLock} does.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DLock getFairLock(String name) {
    return lockIn(fairLocks, name, handle::newFairLock);
  }

  /**
   * The non-reentrant lock named {@code name} (names as for {@link #getLock}):
   * a {@link DLock} whose holder is not let in again, as Curator's
   * {@code InterProcessSemaphoreMutex}: a second {@code lock()} by the holding
   * thread waits for the hold's release like any other thread's, so
   * {@code tryLock()} returns false at once and {@code tryLock(t, unit)} after
   * {@code t}; its hold count is 0 or 1. On Redis it shares Redisson's
   * {@code RLock} hash; on ZooKeeper it is {@code InterProcessSemaphoreMutex}'s
   * layout (docs/zookeeper.md). Makes no round trip; names give DLocks as
   * {@link #getLock} does.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DLock getNonReentrantLock(String name) {
    return lockIn(nonReentrantLocks, name, handle::newNonReentrantLock);
  }

  private DLock lockIn(LockHandles cache, String name, Function<String, NativeLock> make) {
    Objects.requireNonNull(name, "name");
    DLock lock = cache.inUse(name);
    if (lock != null) {
      guard.checkOpen();
      return lock;
    }
    synchronized (this) {
      // Under the monitor, so that close() never frees the native client under a newLock.
      guard.checkOpen();
      return cache.get(name,
          n -> new DLock(n, make.apply(n), guard, callbacks, heldLocks));
    }
  }

  /** The native lock handles not yet freed (reentrant, fair and non-reentrant locks): for tests. */
  int liveLockHandles() {
    return locks.liveHandles() + fairLocks.liveHandles() + nonReentrantLocks.liveHandles();
  }

  /**
   * The read-write lock named {@code name} (Redisson's RReadWriteLock layout;
   * names as for {@link #getLock(String)}). Makes no round trip; the same name
   * always gives the same object.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DReadWriteLock getReadWriteLock(String name) {
    return primitive("rwlock", name, n -> new DReadWriteLock(n, handle, guard, callbacks, heldLocks),
        DReadWriteLock::free);
  }

  /**
   * The semaphore named {@code name} (Redisson's RSemaphore layout; names as for
   * {@link #getLock(String)}). Makes no round trip; the same name always gives
   * the same object.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DSemaphore getSemaphore(String name) {
    return primitive("semaphore", name, n -> new DSemaphore(n, handle.newSemaphore(n), guard, callbacks),
        DSemaphore::free);
  }

  /**
   * The semaphore of leased permits named {@code name} (Redisson's
   * RPermitExpirableSemaphore layout). Makes no round trip; the same name always
   * gives the same object.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DPermitExpirableSemaphore getPermitExpirableSemaphore(String name) {
    return primitive("permits", name,
        n -> new DPermitExpirableSemaphore(n, handle.newPermitSemaphore(n), guard, callbacks),
        DPermitExpirableSemaphore::free);
  }

  /**
   * The count-down latch named {@code name} (Redisson's RCountDownLatch layout).
   * Makes no round trip; the same name always gives the same object.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DCountDownLatch getCountDownLatch(String name) {
    return primitive("latch", name, n -> new DCountDownLatch(n, handle.newCountDownLatch(n), guard, callbacks),
        DCountDownLatch::free);
  }

  private synchronized <T> T primitive(
      String kind, String name, Function<String, T> make, Consumer<T> free) {
    Objects.requireNonNull(name, "name");
    // Under the monitor, so that close() never frees the native client under a new handle.
    guard.checkOpen();
    return primitives.get(kind, name, make, free);
  }

  /**
   * A new candidate for the leadership of {@code name} (names as for {@link
   * #getLock(String)}): every call makes another candidate, so one process
   * may run several. Makes no round trip. Close it when done (it resigns if
   * it leads); the client's close closes those still open.
   *
   * @throws DLockException INVALID for a bad name
   */
  public DElection getElection(String name) {
    Objects.requireNonNull(name, "name");
    synchronized (this) {
      // Under the monitor, so that close() never frees the native client under newElection.
      guard.checkOpen();
      DElection election = new DElection(name, handle.newElection(name), guard, callbacks, elections);
      elections.add(election);
      return election;
    }
  }

  public boolean isClosed() {
    return guard.isClosed();
  }

  /**
   * The backend that serves this client, as its URL's scheme chose it:
   * {@code "redis"} ({@code redis://}, {@code rediss://},
   * {@code redis-sentinel://}, {@code rediss-sentinel://}, {@code unix://}).
   * Still answers once the client is closed.
   */
  public String getBackend() {
    return backend;
  }

  /**
   * This client's counters since it was opened. No round trip: they are kept
   * in this process's memory.
   *
   * @throws IllegalStateException when the client is closed
   */
  public DLockStats getStats() {
    NativeStats stats;
    synchronized (this) {
      // Under the monitor, so that close() never frees the native client under it.
      guard.checkOpen();
      stats = handle.readStats();
    }
    try {
      return new DLockStats(stats);
    } finally {
      stats.delete();
    }
  }

  /**
   * Releases the locks this client holds, wakes its waiters (their calls throw
   * IllegalStateException) and frees its resources. Later calls do nothing.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (!guard.shutOut()) {
        return;
      }
      handle.delete();
    }
    OpenClients.remove(this);
    guard.afterCalls(() -> {
      locks.freeAll();
      fairLocks.freeAll();
      nonReentrantLocks.freeAll();
      heldLocks.clear();
      primitives.freeAll();
    });
    // After the calls in flight (none can start now), and outside the guard: freeing an election
    // waits for its observer's callback, which must not wait for anything this close holds.
    elections.forEach(DElection::closeWithClient);
    elections.clear();
  }
}
