package io.dlock.bench;

import io.dlock.DLock;
import io.dlock.DLockClient;
import java.util.concurrent.locks.Lock;

/** Uncontended lock+unlock pairs per second, one thread, one lock name. */
final class Uncontended {
  /** dlock through lockAsync().join(), then unlock(). */
  static final String DLOCK_LOCK_ASYNC = "dlock-lockAsync";
  /** dlock through lockAsync().join() and unlockAsync().join(). */
  static final String DLOCK_ASYNC = "dlock-async";

  private static final int WARMUP_PAIRS = 3_000;
  private static final int MEASURED_PAIRS = 20_000;

  private Uncontended() {}

  /** One measurement with a fresh client, after a warm-up, in pairs/s. */
  static double pairsPerSecond(String kind, String url) {
    if (kind.equals(DLOCK_LOCK_ASYNC) || kind.equals(DLOCK_ASYNC)) {
      boolean asyncUnlock = kind.equals(DLOCK_ASYNC);
      try (DLockClient client = DLockClient.connect(url)) {
        DLock lock = client.getLock("bench-uncontended-" + kind);
        return measure(() -> {
          lock.lockAsync().join();
          if (asyncUnlock) {
            lock.unlockAsync().join();
          } else {
            lock.unlock();
          }
        });
      }
    }
    try (LockSystem system = LockSystem.open(kind, url)) {
      Lock lock = system.lock("bench-uncontended-" + kind);
      return measure(() -> {
        lock.lock();
        lock.unlock();
      });
    }
  }

  private static double measure(Runnable pair) {
    run(pair, WARMUP_PAIRS);
    long start = System.nanoTime();
    run(pair, MEASURED_PAIRS);
    return MEASURED_PAIRS * 1e9 / (System.nanoTime() - start);
  }

  private static void run(Runnable pair, int pairs) {
    for (int i = 0; i < pairs; i++) {
      pair.run();
    }
  }
}
