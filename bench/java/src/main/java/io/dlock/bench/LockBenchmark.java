package io.dlock.bench;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * dlock vs Redisson RLock against one Redis, in one run:
 *   java -jar dlock-bench.jar REDIS_URL
 * prints uncontended lock+unlock pairs/s and contended hand-off latency
 * (8 threads in 2 JVMs) for each, and the ratios; for dlock also the pairs
 * through lockAsync()/unlockAsync() futures; and the same hand-off for
 * dlock's fair lock against Redisson's RFairLock.
 */
public final class LockBenchmark {
  private static final int ROUNDS = 3;

  private LockBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 7 && args[0].equals("worker")) {
      HandoffWorker.run(args[1], args[2], args[3], Integer.parseInt(args[4]), Long.parseLong(args[5]),
          Path.of(args[6]));
      return;
    }
    if (args.length != 1) {
      System.err.println("usage: java -jar dlock-bench.jar redis://127.0.0.1:PORT");
      System.exit(2);
    }
    String url = args[0];
    System.out.println("Redis " + url + "; Redisson's replica-sync check (checkLockSyncedSlaves) is OFF"
        + " for 'redisson', ON (its default) for 'redisson-defaults'");

    String[] kinds = {LockSystem.DLOCK, LockSystem.REDISSON, LockSystem.REDISSON_DEFAULTS,
        Uncontended.DLOCK_LOCK_ASYNC, Uncontended.DLOCK_ASYNC};
    double[][] rounds = new double[kinds.length][ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      // Interleaved, so that drift on a shared machine hits every system alike.
      for (int k = 0; k < kinds.length; k++) {
        rounds[k][round] = Uncontended.pairsPerSecond(kinds[k], url);
      }
    }
    System.out.println("uncontended lock+unlock, 1 thread (median of " + ROUNDS + " rounds):");
    double[] medians = new double[kinds.length];
    for (int k = 0; k < kinds.length; k++) {
      Arrays.sort(rounds[k]);
      medians[k] = rounds[k][ROUNDS / 2];
      System.out.printf("  %-18s %9.0f pairs/s%n", kinds[k], medians[k]);
    }
    System.out.printf("  ratio dlock/redisson          %.2fx (target >= 1.0)%n", medians[0] / medians[1]);
    System.out.printf("  ratio dlock/redisson-defaults %.2fx%n", medians[0] / medians[2]);
    // lock() waits through the same asynchronous acquire as lockAsync(); unlock()
    // is one direct round trip, unlockAsync() one more thread hop.
    System.out.printf("  ratio dlock-lockAsync/dlock   %.2fx (lockAsync().join()+unlock() vs lock+unlock)%n",
        medians[3] / medians[0]);
    System.out.printf("  ratio dlock-async/dlock       %.2fx (lockAsync().join()+unlockAsync().join())%n",
        medians[4] / medians[0]);

    System.out.println("contended hand-off, " + Handoffs.JVMS * Handoffs.THREADS_PER_JVM + " threads in "
        + Handoffs.JVMS + " JVMs (release -> next waiter holds it):");
    compareHandoffs(LockSystem.DLOCK, LockSystem.REDISSON, url);
    System.out.println("fair lock hand-off, the same threads (dlock getFairLock vs Redisson RFairLock):");
    compareHandoffs(LockSystem.DLOCK_FAIR, LockSystem.REDISSON_FAIR, url);
  }

  /** Measures dlock's kind, then Redisson's, and prints both and their ratios. */
  private static void compareHandoffs(String ours, String theirs, String url) throws Exception {
    Handoffs.Result dlock = Handoffs.measure(ours, url);
    Handoffs.Result redisson = Handoffs.measure(theirs, url);
    print(ours, dlock);
    print(theirs, redisson);
    System.out.printf("  ratio %s/%s: p50 %.2fx, p99 %.2fx (above 1: dlock hands off faster)%n", theirs, ours,
        redisson.p50Micros() / dlock.p50Micros(), redisson.p99Micros() / dlock.p99Micros());
  }

  private static void print(String kind, Handoffs.Result result) {
    System.out.printf("  %-18s p50 %8.1f us   p99 %8.1f us   (%d hand-offs)%n",
        kind, result.p50Micros(), result.p99Micros(), result.count());
  }
}
