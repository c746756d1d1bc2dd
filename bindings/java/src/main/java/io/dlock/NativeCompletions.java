package io.dlock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Where the core reports the outcome of every asynchronous native call: the
 * SWIG director it calls on the client's async thread, which hands each outcome
 * to the handler of its call. One for the process, held here because the
 * native side keeps only a weak reference to it.
 */
final class NativeCompletions extends NativeDoneCallback {
  private static final NativeCompletions INSTANCE = new NativeCompletions();
  private static final System.Logger LOG = System.getLogger("io.dlock");

  private final AtomicLong lastCall = new AtomicLong();
  private final Map<Long, Consumer<NativeOutcome>> handlers = new ConcurrentHashMap<>();

  /** A native call that reports to {@code callback} under the id {@code call}. */
  @FunctionalInterface
  interface Start {
    void start(NativeDoneCallback callback, long call);
  }

  private NativeCompletions() {}

  /**
   * Starts a call; {@code handler} gets its outcome once, on dlock's async
   * thread, where it must only hand the outcome on (wake a parked thread or
   * submit to an executor): that thread drives every asynchronous call of the
   * client. When the call does not start, its exception is thrown here and
   * the handler never runs.
   */
  static void start(Start start, Consumer<NativeOutcome> handler) {
    long call = INSTANCE.lastCall.incrementAndGet();
    INSTANCE.handlers.put(call, handler);
    try {
      start.start(INSTANCE, call);
    } catch (RuntimeException | Error notStarted) {
      INSTANCE.handlers.remove(call);
      throw notStarted;
    }
  }

  @Override
  public void done(long call, int status, long token, String grantedPermitId, String message, boolean expiry) {
    Consumer<NativeOutcome> handler = handlers.remove(call);
    try {
      handler.accept(new NativeOutcome(status, token, grantedPermitId, message, expiry));
    } catch (Throwable thrown) {
      // Nothing may propagate into the native async thread.
      LOG.log(System.Logger.Level.ERROR, "dlock: delivering the outcome of an asynchronous call failed",
          thrown);
    }
  }
}
