package io.dlock.bench;

import io.dlock.DLockClient;
import io.dlock.DLockStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;
import org.redisson.connection.CRC16;

/**
 * dlock and Redisson on a Redis Cluster against a standalone node, in one run:
 *   java -cp dlock-bench.jar io.dlock.bench.ClusterBenchmark CLUSTER_URL STANDALONE_URL
 * CLUSTER_URL lists the cluster's nodes (redis://127.0.0.1:7001,127.0.0.1:7002,...); dlock gets
 * it as is, Redisson in useClusterServers(). Prints uncontended lock+unlock pairs/s, the hand-off
 * between two clients, and the renewal scripts per watchdog period for 10,000 held locks.
 * Redisson's replica-sync check (checkLockSyncedSlaves) is off, as dlock's sync_replicas is.
 */
public final class ClusterBenchmark {
  private static final int ROUNDS = 3;
  private static final int WARMUP_PAIRS = 2_000;
  private static final int MEASURED_PAIRS = 10_000;
  private static final int HANDOFFS_PER_NAME = 100;
  private static final long WAITER_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  private static final int HELD_LOCKS = 10_000;
  private static final long WATCHDOG_MS = 6_000;
  private static final int PERIODS = 3;
  private static final int SLOTS = 16384;

  private ClusterBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ClusterBenchmark redis://HOST:PORT,HOST:PORT,... redis://HOST:PORT");
      System.exit(2);
    }
    String cluster = args[0];
    String standalone = args[1];
    List<String> names = namePerMaster(3);
    System.out.println("cluster " + cluster + ", standalone " + standalone + "; names " + names
        + " (one per third of the slots: one per master of a 3-master cluster made by --cluster create)");

    System.out.println("uncontended lock+unlock pairs/s, 1 thread, names in turn (median of " + ROUNDS + " rounds):");
    for (String kind : new String[] {LockSystem.DLOCK, LockSystem.REDISSON}) {
      double[] onCluster = new double[ROUNDS];
      double[] onStandalone = new double[ROUNDS];
      for (int round = 0; round < ROUNDS; round++) {
        onCluster[round] = pairsPerSecond(kind, cluster, names);
        onStandalone[round] = pairsPerSecond(kind, standalone, names);
      }
      double c = median(onCluster);
      double s = median(onStandalone);
      System.out.printf("  %-9s cluster %8.0f   standalone %8.0f   cluster/standalone %.2fx%n", kind, c, s, c / s);
    }

    System.out.println("hand-off between two clients (release call begins -> the other client's lock() returns):");
    for (String kind : new String[] {LockSystem.DLOCK, LockSystem.REDISSON}) {
      for (String url : new String[] {cluster, standalone}) {
        long[] handoffs = handoffs(kind, url, names);
        System.out.printf("  %-9s %-10s p50 %8.1f us   p99 %8.1f us   (%d hand-offs)%n", kind,
            url.equals(cluster) ? "cluster" : "standalone", Handoffs.percentile(handoffs, 0.50), Handoffs.percentile(handoffs, 0.99),
            handoffs.length);
      }
    }

    System.out.println("watchdog with " + HELD_LOCKS + " held locks, lease " + WATCHDOG_MS + " ms (period "
        + WATCHDOG_MS / 3 + " ms), per period over " + PERIODS + " periods:");
    try (Observer onCluster = new Observer(cluster); Observer onStandalone = new Observer(standalone)) {
      for (String kind : new String[] {LockSystem.DLOCK, LockSystem.REDISSON}) {
        renewals(kind, cluster, onCluster);
        renewals(kind, standalone, onStandalone);
      }
    }
  }

  /** `count` names, the i-th with its slot in the i-th of `count` equal parts of the slot space. */
  static List<String> namePerMaster(int count) {
    List<String> names = new ArrayList<>();
    for (int part = 0; part < count; part++) {
      for (int i = 0; ; i++) {
        String name = "bench-cluster-" + i;
        if (slotOf(name) * count / SLOTS == part) {
          names.add(name);
          break;
        }
      }
    }
    return names;
  }

  private static int slotOf(String key) {
    return CRC16.crc16(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)) % SLOTS;
  }

  private static double pairsPerSecond(String kind, String url, List<String> names) {
    try (LockSystem system = LockSystem.open(kind, url)) {
      List<Lock> locks = new ArrayList<>();
      for (String name : names) {
        locks.add(system.lock(name));
      }
      runPairs(locks, WARMUP_PAIRS);
      long start = System.nanoTime();
      runPairs(locks, MEASURED_PAIRS);
      return MEASURED_PAIRS * 1e9 / (System.nanoTime() - start);
    }
  }

  private static void runPairs(List<Lock> locks, int pairs) {
    for (int i = 0; i < pairs; i++) {
      Lock lock = locks.get(i % locks.size());
      lock.lock();
      lock.unlock();
    }
  }

  /**
   * For each name: the holder (this thread, its own client) takes the lock, a waiter thread on a
   * second client asks for it and sleeps, the holder releases; the waiter's lock() returning ends
   * the hand-off, and the waiter releases at once. The first round of each name is left out.
   */
  private static long[] handoffs(String kind, String url, List<String> names) throws Exception {
    List<Long> found = new ArrayList<>();
    try (LockSystem holderSystem = LockSystem.open(kind, url); LockSystem waiterSystem = LockSystem.open(kind, url)) {
      for (String name : names) {
        Lock held = holderSystem.lock(name);
        Lock wanted = waiterSystem.lock(name);
        SynchronousQueue<Boolean> go = new SynchronousQueue<>();
        SynchronousQueue<Long> granted = new SynchronousQueue<>();
        Thread waiter = new Thread(() -> {
          try {
            while (go.take()) {
              wanted.lock();
              long at = System.nanoTime();
              wanted.unlock();
              granted.put(at);
            }
          } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
          }
        });
        waiter.start();
        for (int round = 0; round < HANDOFFS_PER_NAME; round++) {
          held.lock();
          go.put(true);
          long settle = System.nanoTime() + WAITER_SETTLE_NANOS;
          while (System.nanoTime() < settle) {
            Thread.onSpinWait();
          }
          long releasing = System.nanoTime();
          held.unlock();
          long at = granted.take();
          if (round > 0) {
            found.add(at - releasing);
          }
        }
        go.put(false);
        waiter.join();
      }
    }
    return found.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  /** Holds HELD_LOCKS locks with a WATCHDOG_MS watchdog and counts what the renewals cost. */
  private static void renewals(String kind, String url, Observer observer) throws Exception {
    long periodMs = WATCHDOG_MS / 3;
    boolean dlock = kind.equals(LockSystem.DLOCK);
    DLockClient dlockClient = null;
    RedissonClient redisson = null;
    List<Lock> locks = new ArrayList<>();
    if (dlock) {
      dlockClient = DLockClient.builder().url(url).watchdogTimeout(Duration.ofMillis(WATCHDOG_MS)).build();
    } else {
      Config config = LockSystem.redissonConfig(url);
      config.setLockWatchdogTimeout(WATCHDOG_MS);
      redisson = Redisson.create(config);
    }
    try {
      for (int i = 0; i < HELD_LOCKS; i++) {
        Lock lock = dlock ? dlockClient.getLock("bench-held-" + i) : redisson.getLock("bench-held-" + i);
        lock.lock();
        locks.add(lock);
      }
      Thread.sleep(periodMs * 3 / 2);
      long[] before = observer.scripts();
      DLockStats statsBefore = dlock ? dlockClient.getStats() : null;
      Thread.sleep(periodMs * PERIODS);
      long[] after = observer.scripts();
      StringBuilder perMaster = new StringBuilder();
      long total = 0;
      for (int m = 0; m < before.length; m++) {
        long calls = (after[m] - before[m]) / PERIODS;
        total += calls;
        perMaster.append(m == 0 ? "" : " + ").append(calls);
      }
      String where = before.length > 1 ? "cluster   " : "standalone";
      String roundTrips = "";
      if (dlock) {
        DLockStats statsAfter = dlockClient.getStats();
        roundTrips = String.format("   round trips %.1f",
            (statsAfter.getRenewalRoundTrips() - statsBefore.getRenewalRoundTrips()) / (double) PERIODS);
      }
      System.out.printf("  %-9s %s renewal scripts %s = %d%s%n", kind, where, perMaster, total, roundTrips);
      for (Lock lock : locks) {
        lock.unlock();
      }
    } finally {
      if (dlockClient != null) {
        dlockClient.close();
      }
      if (redisson != null) {
        redisson.shutdown();
      }
    }
  }

  /** Reads EVAL+EVALSHA calls on each master through a Redisson client of its own. */
  private static final class Observer implements AutoCloseable {
    private final RedissonClient client;
    private final boolean cluster;

    Observer(String url) {
      client = Redisson.create(LockSystem.redissonConfig(url));
      cluster = url.contains(",");
    }

    long[] scripts() {
      List<Map<String, String>> stats = new ArrayList<>();
      if (cluster) {
        client.getRedisNodes(RedisNodes.CLUSTER).getMasters().stream()
            .sorted((a, b) -> Integer.compare(a.getAddr().getPort(), b.getAddr().getPort()))
            .forEach(master -> stats.add(master.info(RedisNode.InfoSection.COMMANDSTATS)));
      } else {
        stats.add(client.getRedisNodes(RedisNodes.SINGLE).getInstance().info(RedisNode.InfoSection.COMMANDSTATS));
      }
      return stats.stream().mapToLong(s -> calls(s, "cmdstat_eval") + calls(s, "cmdstat_evalsha")).toArray();
    }

    private static long calls(Map<String, String> stats, String command) {
      String line = stats.get(command);
      if (line == null) {
        return 0;
      }
      int start = line.indexOf("calls=") + "calls=".length();
      return Long.parseLong(line.substring(start, line.indexOf(',', start)));
    }

    @Override
    public void close() {
      client.shutdown();
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
