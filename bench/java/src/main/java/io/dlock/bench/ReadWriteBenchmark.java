package io.dlock.bench;

import io.dlock.DLockClient;
import io.dlock.DReadWriteLock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * dlock's read-write lock vs Redisson's RReadWriteLock against one Redis, in one run:
 *   java -cp dlock-bench.jar io.dlock.bench.ReadWriteBenchmark REDIS_URL
 * prints uncontended read and write pairs/s, mixed-workload throughput (threads
 * taking the read side 9 times in 10), and how long a writer waits for a
 * continuous stream of overlapping readers: dlock with and without writer
 * preference, and Redisson, side by side with ratios.
 */
public final class ReadWriteBenchmark {
  private static final int ROUNDS = 3;
  private static final int WARMUP_PAIRS = 2_000;
  private static final int MEASURED_PAIRS = 10_000;
  private static final int MIXED_THREADS = 8;
  private static final long MIXED_MS = 3_000;
  private static final int STREAM_READERS = 4;
  /** Each reader holds this long, and the readers start staggered so that their holds overlap. */
  private static final long READ_HOLD_MS = 20;
  /** A writer still waiting after this is reported as starved; the readers then stop. */
  private static final long STARVATION_CAP_MS = 5_000;
  private static final int WRITER_TRIALS = 5;

  private static final String DLOCK = "dlock";
  private static final String DLOCK_NO_PREFERENCE = "dlock-no-writer-preference";
  private static final String REDISSON = "redisson";

  private ReadWriteBenchmark() {}

  /** A client of one of the compared libraries. */
  private interface RwSystem extends AutoCloseable {
    ReadWriteLock get(String name);

    @Override
    void close();
  }

  private static RwSystem open(String kind, String url) {
    if (kind.equals(REDISSON)) {
      Config config = new Config();
      config.useSingleServer().setAddress(url);
      config.setCheckLockSyncedSlaves(false);
      RedissonClient client = Redisson.create(config);
      return new RwSystem() {
        @Override
        public ReadWriteLock get(String name) {
          return client.getReadWriteLock(name);
        }

        @Override
        public void close() {
          client.shutdown();
        }
      };
    }
    DLockClient client = DLockClient.connect(url);
    boolean preference = kind.equals(DLOCK);
    return new RwSystem() {
      @Override
      public ReadWriteLock get(String name) {
        DReadWriteLock lock = client.getReadWriteLock(name);
        lock.setWriterPreference(preference);
        return lock;
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: java -cp dlock-bench.jar io.dlock.bench.ReadWriteBenchmark redis://127.0.0.1:PORT");
      System.exit(2);
    }
    String url = args[0];
    String[] kinds = {DLOCK, REDISSON};
    System.out.println("Redis " + url + "; Redisson with checkLockSyncedSlaves off");

    for (boolean write : new boolean[] {false, true}) {
      double[][] rounds = new double[kinds.length][ROUNDS];
      for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < kinds.length; k++) {
          rounds[k][round] = uncontendedPairs(kinds[k], url, write);
        }
      }
      double[] medians = medians(rounds);
      System.out.println("uncontended " + (write ? "write" : "read") + " lock+unlock, 1 thread (median of "
          + ROUNDS + "):");
      for (int k = 0; k < kinds.length; k++) {
        System.out.printf("  %-28s %9.0f pairs/s%n", kinds[k], medians[k]);
      }
      System.out.printf("  ratio dlock/redisson %.2fx%n", medians[0] / medians[1]);
    }

    String[] mixedKinds = {DLOCK, REDISSON, DLOCK_NO_PREFERENCE};
    double[][] mixed = new double[mixedKinds.length][ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      for (int k = 0; k < mixedKinds.length; k++) {
        mixed[k][round] = mixedOpsPerSecond(mixedKinds[k], url);
      }
    }
    double[] mixedMedians = medians(mixed);
    System.out.println("mixed, " + MIXED_THREADS + " threads, 9 reads : 1 write, one name (median of " + ROUNDS
        + "):");
    for (int k = 0; k < mixedKinds.length; k++) {
      System.out.printf("  %-28s %9.0f ops/s%n", mixedKinds[k], mixedMedians[k]);
    }
    System.out.printf("  ratio dlock/redisson %.2fx, dlock-no-writer-preference/redisson %.2fx%n",
        mixedMedians[0] / mixedMedians[1], mixedMedians[2] / mixedMedians[1]);

    System.out.println("writer starvation: " + STREAM_READERS + " readers holding " + READ_HOLD_MS
        + " ms each, overlapping, without pause; one writer of the same library (median of " + WRITER_TRIALS
        + " trials; capped at " + STARVATION_CAP_MS + " ms, when the readers stop):");
    String[] starvationKinds = {DLOCK, DLOCK_NO_PREFERENCE, REDISSON};
    double[] waits = new double[starvationKinds.length];
    for (int k = 0; k < starvationKinds.length; k++) {
      long[] trials = writerWaits(starvationKinds[k], url);
      Arrays.sort(trials);
      waits[k] = trials[trials.length / 2];
      System.out.printf("  %-28s median %6d ms   max %6d ms%s%n", starvationKinds[k], trials[trials.length / 2],
          trials[trials.length - 1], trials[trials.length / 2] >= STARVATION_CAP_MS ? "   (starved)" : "");
    }
    System.out.printf("  ratio dlock-no-writer-preference/dlock %.0fx, redisson/dlock %.0fx (above 1: dlock's writer"
        + " waits less)%n", waits[1] / Math.max(1, waits[0]), waits[2] / Math.max(1, waits[0]));
  }

  private static double[] medians(double[][] rounds) {
    double[] medians = new double[rounds.length];
    for (int k = 0; k < rounds.length; k++) {
      Arrays.sort(rounds[k]);
      medians[k] = rounds[k][rounds[k].length / 2];
    }
    return medians;
  }

  private static double uncontendedPairs(String kind, String url, boolean write) {
    try (RwSystem system = open(kind, url)) {
      ReadWriteLock rw = system.get("bench-rw-uncontended-" + kind);
      java.util.concurrent.locks.Lock lock = write ? rw.writeLock() : rw.readLock();
      for (int i = 0; i < WARMUP_PAIRS; i++) {
        lock.lock();
        lock.unlock();
      }
      long start = System.nanoTime();
      for (int i = 0; i < MEASURED_PAIRS; i++) {
        lock.lock();
        lock.unlock();
      }
      return MEASURED_PAIRS * 1e9 / (System.nanoTime() - start);
    }
  }

  private static double mixedOpsPerSecond(String kind, String url) throws InterruptedException {
    try (RwSystem system = open(kind, url)) {
      ReadWriteLock rw = system.get("bench-rw-mixed-" + kind);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong ops = new AtomicLong();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < MIXED_THREADS; t++) {
        Thread thread = new Thread(() -> {
          while (!stop.get()) {
            java.util.concurrent.locks.Lock lock =
                ThreadLocalRandom.current().nextInt(10) == 0 ? rw.writeLock() : rw.readLock();
            lock.lock();
            lock.unlock();
            ops.incrementAndGet();
          }
        });
        thread.start();
        threads.add(thread);
      }
      Thread.sleep(MIXED_MS / 3);  // warm-up
      long before = ops.get();
      long start = System.nanoTime();
      Thread.sleep(MIXED_MS);
      double rate = (ops.get() - before) * 1e9 / (System.nanoTime() - start);
      stop.set(true);
      for (Thread thread : threads) {
        thread.join();
      }
      return rate;
    }
  }

  /**
   * Readers of `kind` on their own clients keep the read side held without a gap;
   * a writer of the same kind then waits for the write side. Returns each trial's wait.
   */
  private static long[] writerWaits(String kind, String url) throws Exception {
    long[] waits = new long[WRITER_TRIALS];
    try (RwSystem readers = open(kind, url); RwSystem writers = open(kind, url)) {
      for (int trial = 0; trial < WRITER_TRIALS; trial++) {
        String name = "bench-rw-starve-" + kind + "-" + trial;
        ReadWriteLock readSide = readers.get(name);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < STREAM_READERS; r++) {
          long offset = r * READ_HOLD_MS / STREAM_READERS;
          Thread thread = new Thread(() -> {
            sleep(offset);
            while (!stop.get()) {
              readSide.readLock().lock();
              sleep(READ_HOLD_MS);
              readSide.readLock().unlock();
            }
          });
          thread.start();
          threads.add(thread);
        }
        Thread.sleep(200);  // the stream is running
        java.util.concurrent.locks.Lock write = writers.get(name).writeLock();
        long start = System.nanoTime();
        boolean got = write.tryLock(STARVATION_CAP_MS, TimeUnit.MILLISECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        stop.set(true);
        if (!got) {
          write.lock();  // once the readers stop
          waited = STARVATION_CAP_MS;
        }
        write.unlock();
        for (Thread thread : threads) {
          thread.join();
        }
        waits[trial] = waited;
      }
    }
    return waits;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
