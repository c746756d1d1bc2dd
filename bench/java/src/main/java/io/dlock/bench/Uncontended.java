package io.dlock.bench;

import java.util.concurrent.locks.Lock;

/** Uncontended lock+unlock pairs per second, one thread, one lock name. */
final class Uncontended {
  private static final int WARMUP_PAIRS = 3_000;
  private static final int MEASURED_PAIRS = 20_000;

  private Uncontended() {}

  /** One measurement with a fresh client, after a warm-up, in pairs/s. */
  static double pairsPerSecond(String kind, String url) {
    try (LockSystem system = LockSystem.open(kind, url)) {
      Lock lock = system.lock("bench-uncontended-" + kind);
      run(lock, WARMUP_PAIRS);
      long start = System.nanoTime();
      run(lock, MEASURED_PAIRS);
      return MEASURED_PAIRS * 1e9 / (System.nanoTime() - start);
    }
  }

  private static void run(Lock lock, int pairs) {
    for (int i = 0; i < pairs; i++) {
      lock.lock();
      lock.unlock();
    }
  }
}
