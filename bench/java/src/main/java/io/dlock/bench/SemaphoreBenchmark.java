package io.dlock.bench;

import io.dlock.DLockClient;
import io.dlock.DSemaphore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.Redisson;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * dlock's DSemaphore vs Redisson's RSemaphore against one Redis, in one run:
 *   java -cp dlock-bench.jar io.dlock.bench.SemaphoreBenchmark REDIS_URL
 * prints acquire+release pairs/s with 1 thread (permits always free) and with
 * 4 threads sharing 2 permits (waits woken by release messages), and the ratios.
 */
public final class SemaphoreBenchmark {
  private static final int ROUNDS = 3;
  private static final int WARMUP_PAIRS = 2_000;
  private static final int MEASURED_PAIRS = 10_000;
  private static final int THREADS = 4;
  private static final int SHARED_PERMITS = 2;

  /** One semaphore under test: acquire one permit (waiting), release it. */
  private interface Pair {
    void run() throws InterruptedException;
  }

  private SemaphoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: java -cp dlock-bench.jar io.dlock.bench.SemaphoreBenchmark redis://127.0.0.1:PORT");
      System.exit(2);
    }
    String url = args[0];
    Config config = new Config();
    config.useSingleServer().setAddress(url);
    RedissonClient redisson = Redisson.create(config);
    try (DLockClient dlock = DLockClient.connect(url)) {
      for (int threads : new int[] {1, THREADS}) {
        int permits = threads == 1 ? 1 : SHARED_PERMITS;
        double[] ours = new double[ROUNDS];
        double[] theirs = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
          // Interleaved, so that drift on a shared machine hits both alike.
          DSemaphore d = dlock.getSemaphore("bench-sem-dlock-" + threads + "-" + round);
          d.trySetPermits(permits);
          ours[round] = pairsPerSecond(threads, () -> {
            d.acquire();
            d.release();
          });
          RSemaphore r = redisson.getSemaphore("bench-sem-redisson-" + threads + "-" + round);
          r.trySetPermits(permits);
          theirs[round] = pairsPerSecond(threads, () -> {
            r.acquire();
            r.release();
          });
        }
        Arrays.sort(ours);
        Arrays.sort(theirs);
        double dlockMedian = ours[ROUNDS / 2];
        double redissonMedian = theirs[ROUNDS / 2];
        System.out.printf("semaphore acquire+release, %d thread(s), %d permit(s) (median of %d rounds):%n",
            threads, permits, ROUNDS);
        System.out.printf("  %-10s %9.0f pairs/s%n", "dlock", dlockMedian);
        System.out.printf("  %-10s %9.0f pairs/s%n", "redisson", redissonMedian);
        System.out.printf("  ratio dlock/redisson %.2fx%n", dlockMedian / redissonMedian);
      }
    } finally {
      redisson.shutdown();
    }
  }

  /** Pairs per second over all threads, after a warm-up; each thread runs its share. */
  private static double pairsPerSecond(int threads, Pair pair) throws InterruptedException {
    runOn(threads, WARMUP_PAIRS / threads, pair);
    long start = System.nanoTime();
    long done = runOn(threads, MEASURED_PAIRS / threads, pair);
    return done * 1e9 / (System.nanoTime() - start);
  }

  private static long runOn(int threads, int pairsEach, Pair pair) throws InterruptedException {
    AtomicLong done = new AtomicLong();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> {
        try {
          for (int i = 0; i < pairsEach; i++) {
            pair.run();
            done.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join();
    }
    return done.get();
  }
}
