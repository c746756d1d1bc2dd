package io.dlock;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * Options for a {@link DLockClient}, beside the URL's query options (which
 * override them):
 *
 * <pre>{@code
 * DLockClient client = DLockClient.builder()
 *     .url("redis://127.0.0.1:6379")
 *     .commandTimeout(Duration.ofMillis(500))
 *     .watchdogTimeout(Duration.ofSeconds(10))
 *     .build();
 * }</pre>
 *
 * Unset options keep the library's defaults; out-of-range values fail in
 * {@link #build()} with a {@link DLockException} (INVALID) naming the option.
 */
public final class DLockClientBuilder {
  /**
   * The common pool, wrapped: CompletableFuture would replace the pool itself
   * by a new thread per task where it has a single worker (two CPUs or fewer).
   */
  static final Executor DEFAULT_CALLBACKS = task -> ForkJoinPool.commonPool().execute(task);

  private String url;
  private Long connectTimeoutMs;
  private Long commandTimeoutMs;
  private Long watchdogTimeoutMs;
  private Integer poolSize;
  private Integer syncReplicas;
  private Long syncTimeoutMs;
  private Executor callbackExecutor = DEFAULT_CALLBACKS;

  DLockClientBuilder() {}

  /** The server, in the grammar of {@link DLockClient#connect(String)}; required. */
  public DLockClientBuilder url(String url) {
    this.url = Objects.requireNonNull(url, "url");
    return this;
  }

  /** TCP/Unix connect timeout; default 2 s. */
  public DLockClientBuilder connectTimeout(Duration timeout) {
    connectTimeoutMs = millis(timeout, "connectTimeout");
    return this;
  }

  /** Time for one command, retries on fresh connections included; default 3 s. */
  public DLockClientBuilder commandTimeout(Duration timeout) {
    commandTimeoutMs = millis(timeout, "commandTimeout");
    return this;
  }

  /** Lease kept alive by the watchdog for holds without a lease time; default 30 s. */
  public DLockClientBuilder watchdogTimeout(Duration timeout) {
    watchdogTimeoutMs = millis(timeout, "watchdogTimeout");
    return this;
  }

  /** Most pooled command connections; default 8. */
  public DLockClientBuilder poolSize(int size) {
    poolSize = size;
    return this;
  }

  /**
   * Replica sync: a fresh grant counts only once {@code WAIT} confirms it
   * reached this many replicas, else it is undone and the attempt fails like
   * a busy lock (docs/deployments.md); default 0, no WAIT. The URL's
   * {@code sync_replicas=} overrides it.
   */
  public DLockClientBuilder syncReplicas(int count) {
    syncReplicas = count;
    return this;
  }

  /** How long {@code WAIT} waits for the replicas; default 1 s, less than the command timeout. */
  public DLockClientBuilder syncTimeout(Duration timeout) {
    syncTimeoutMs = millis(timeout, "syncTimeout");
    return this;
  }

  /**
   * Where the futures of the {@code ...Async} methods complete, and where
   * their stages attached without an executor run; default
   * {@link ForkJoinPool#commonPool()}.
   */
  public DLockClientBuilder callbackExecutor(Executor executor) {
    // Wrapped for the same reason as DEFAULT_CALLBACKS, should it be the common pool.
    callbackExecutor = Objects.requireNonNull(executor, "executor")::execute;
    return this;
  }

  /**
   * Connects and checks the connection (and credentials) before returning.
   *
   * @throws IllegalStateException when no URL was given
   * @throws DLockException as {@link DLockClient#connect(String)} does
   */
  public DLockClient build() {
    if (url == null) {
      throw new IllegalStateException("DLockClientBuilder: url(...) was not called");
    }
    NativeOptions options = new NativeOptions();
    try {
      if (connectTimeoutMs != null) {
        options.setConnectTimeoutMs(connectTimeoutMs);
      }
      if (commandTimeoutMs != null) {
        options.setCommandTimeoutMs(commandTimeoutMs);
      }
      if (watchdogTimeoutMs != null) {
        options.setWatchdogTimeoutMs(watchdogTimeoutMs);
      }
      if (poolSize != null) {
        options.setPoolSize(poolSize);
      }
      if (syncReplicas != null) {
        options.setSyncReplicas(syncReplicas);
      }
      if (syncTimeoutMs != null) {
        options.setSyncTimeoutMs(syncTimeoutMs);
      }
      return DLockClient.open(new NativeClient(url, options), callbackExecutor);
    } finally {
      options.delete();
    }
  }

  /** Whole milliseconds, rounded up (the library checks the range). */
  private static long millis(Duration timeout, String name) {
    Objects.requireNonNull(timeout, name);
    if (timeout.isNegative() || timeout.isZero()) {
      return timeout.toMillis();
    }
    try {
      return Math.max(1, timeout.toMillis());
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
