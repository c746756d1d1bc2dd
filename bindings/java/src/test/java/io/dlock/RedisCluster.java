package io.dlock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store.CloseableResource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A Redis Cluster of 3 masters and 3 replicas on loopback ports ({@code cluster-node-timeout
 * 1000}), made by {@code <cli> --cluster create ... --cluster-replicas 1}. It forms in several
 * seconds, so every test class of the run shares one, started by the first class that
 * registers it and stopped when the run ends:
 * {@code @RegisterExtension static final RedisCluster cluster = RedisCluster.SHARED;}
 */
final class RedisCluster implements BeforeAllCallback, CloseableResource {
  static final RedisCluster SHARED = new RedisCluster();

  /** A waiter woken by the release message is granted well within this. */
  static final long PROMPT_MS = 2_000;

  private static final int NODES = 6;
  private static final int MASTERS = 3;
  // Below 22000 so the bus ports (+10000) stay clear of the ephemeral range.
  private static final int LOWEST_PORT = 12000;
  private static final int PORT_SPAN = 10000;
  private static final int BUS_OFFSET = 10000;

  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private Path dir;

  private RedisCluster() {}

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getRoot().getStore(Namespace.GLOBAL)
        .getOrComputeIfAbsent(RedisCluster.class, key -> startOnce(), RedisCluster.class);
  }

  private RedisCluster startOnce() {
    try {
      start();
      return this;
    } catch (IOException | InterruptedException failed) {
      close();
      throw new IllegalStateException("the Redis Cluster did not start", failed);
    }
  }

  private void start() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("dlock-cluster");
    for (int i = 0; i < NODES; i++) {
      int port = freeClusterPort();
      processes.add(startNode(port));
      ports.add(port);
    }
    List<String> create = new ArrayList<>(List.of(cli(), "--cluster", "create"));
    ports.forEach(port -> create.add("127.0.0.1:" + port));
    create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
    Process creating = new ProcessBuilder(create).redirectErrorStream(true)
        .redirectOutput(dir.resolve("create.log").toFile()).start();
    if (!creating.waitFor(60, TimeUnit.SECONDS) || creating.exitValue() != 0) {
      throw new IOException("cluster create failed: " + Files.readString(dir.resolve("create.log")));
    }
    await(this::healthy, 30, "cluster_state:ok everywhere and an online replica per master");
  }

  /** A node on {@code port}; its cluster config file keeps its identity across restarts. */
  private Process startNode(int port) throws IOException, InterruptedException {
    Process node = new ProcessBuilder(RedisServer.binary(), "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
            "--cluster-enabled", "yes", "--cluster-node-timeout", "1000",
            "--cluster-config-file", "nodes-" + port + ".conf")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("node" + port + ".log").toFile()))
        .start();
    await(() -> answers(port), 10, "redis-server on port " + port);
    return node;
  }

  /**
   * Kills the master serving {@code key} ({@code kill -9}), waits until its replica serves the
   * slot, then starts the old node again (it rejoins as a replica) and waits until the cluster is
   * healthy, so the classes after this one find it whole. Returns the promoted master's port.
   */
  int failOverMasterOf(String key) throws IOException, InterruptedException {
    int old = masterOf(key);
    int index = ports.indexOf(old);
    processes.get(index).destroyForcibly().waitFor();
    int[] promoted = {old};
    await(() -> {
      try {
        promoted[0] = masterOf(key);
      } catch (IllegalStateException noMasterYet) {
        return false;
      }
      return promoted[0] != old && answers(promoted[0]);
    }, 30, "a replica promoted in place of " + old);
    processes.set(index, startNode(old));
    await(this::healthy, 30, "the cluster healthy again after the failover");
    return promoted[0];
  }

  /** Stops every node, at the end of the run. */
  @Override
  public void close() {
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        process.waitFor();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException ignored) {
        // a temporary directory left behind is harmless
      }
    }
  }

  /** The server's own client, its sibling: redis-server -> redis-cli, valkey-server -> valkey-cli. */
  private static String cli() {
    String server = RedisServer.binary();
    int suffix = server.lastIndexOf("-server");
    return suffix < 0 ? "redis-cli" : server.substring(0, suffix) + "-cli";
  }

  /** A URL naming one seed node, as a user would write it. */
  String url() {
    return url(0);
  }

  /** A URL naming the {@code index}-th node alone as its seed. */
  String url(int index) {
    return "redis://127.0.0.1:" + ports.get(index);
  }

  /** Every node's address, as Redisson's addNodeAddress takes them. */
  String[] seedAddresses() {
    return ports.stream().map(port -> "redis://127.0.0.1:" + port).toArray(String[]::new);
  }

  /** A Redisson client in cluster mode on this cluster; the caller shuts it down. */
  RedissonClient redisson() {
    Config config = new Config();
    config.useClusterServers().addNodeAddress(seedAddresses());
    return Redisson.create(config);
  }

  /** A plain client of the node on {@code port}; close it after use. */
  Jedis node(int port) {
    return new Jedis("127.0.0.1", port);
  }

  /** The port of the master serving {@code key} now, as the first node that answers says. */
  int masterOf(String key) {
    for (int port : ports) {
      if (!answers(port)) {
        continue;  // a node killed for a failover
      }
      try (Jedis any = node(port)) {
        long slot = any.clusterKeySlot(key);
        for (String line : any.clusterNodes().split("\n")) {
          String[] fields = line.trim().split(" ");
          if (fields.length > 8 && fields[2].contains("master") && !fields[2].contains("fail")
              && serves(fields, slot)) {
            return nodePort(fields);
          }
        }
      }
      break;
    }
    throw new IllegalStateException("no master serves " + key);
  }

  /** One name per master ({@code prefix-0}, {@code prefix-1}, ...). */
  List<String> namesOnEachMaster(String prefix) {
    Map<Integer, String> byMaster = new LinkedHashMap<>();
    for (int index = 0; byMaster.size() < MASTERS; index++) {
      String name = prefix + "-" + index;
      byMaster.putIfAbsent(masterOf(name), name);
    }
    return List.copyOf(byMaster.values());
  }

  /** Whether the master serving {@code key} has it. */
  boolean exists(String key) {
    try (Jedis master = node(masterOf(key))) {
      return master.exists(key);
    }
  }

  /**
   * For a name on each master: {@code holder} locks it, {@code waiter} (another client's) blocks
   * until it subscribed with SSUBSCRIBE on the name's master, the holder unlocks, and the waiter
   * must be granted within {@link #PROMPT_MS} (without the message, it would wait ~30 s of lease).
   */
  void assertPromptWakeOnEachMaster(
      String prefix, Function<String, Lock> holder, Function<String, Lock> waiter) throws Exception {
    for (String name : namesOnEachMaster(prefix)) {
      Lock held = holder.apply(name);
      held.lock();
      long wakeMs = Threads.msToGrantAfter(waiter.apply(name),
          () -> awaitShardSubscriber("redisson_lock__channel:{" + name + "}"), held::unlock);
      if (wakeMs >= PROMPT_MS) {
        throw new AssertionError(name + ": the waiter woke " + wakeMs + " ms after the unlock");
      }
    }
  }

  /** Until {@code channel} has a sharded subscriber (SSUBSCRIBE) on the master serving its slot. */
  private void awaitShardSubscriber(String channel) throws InterruptedException {
    try (Jedis master = node(masterOf(channel))) {
      await(() -> master.pubsubShardChannels().contains(channel), 5, "a sharded subscriber of " + channel);
    }
  }

  private static boolean serves(String[] fields, long slot) {
    for (int i = 8; i < fields.length; i++) {
      if (fields[i].startsWith("[")) {
        continue;  // a slot being imported or migrated
      }
      String[] range = fields[i].split("-");
      long first = Long.parseLong(range[0]);
      long last = Long.parseLong(range[range.length - 1]);
      if (first <= slot && slot <= last) {
        return true;
      }
    }
    return false;
  }

  private static int nodePort(String[] fields) {
    String address = fields[1].split("@")[0];
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
  }

  private boolean healthy() {
    try {
      int masters = 0;
      for (int port : ports) {
        try (Jedis node = node(port)) {
          if (!node.clusterInfo().contains("cluster_state:ok")) {
            return false;
          }
          String replication = node.info("replication");
          if (replication.contains("role:master")) {
            masters++;
            if (!replication.contains("state=online")) {
              return false;
            }
          }
        }
      }
      return masters == MASTERS;
    } catch (JedisException notYet) {
      return false;
    }
  }

  private static boolean answers(int port) {
    try (Jedis jedis = new Jedis("127.0.0.1", port)) {
      return "PONG".equals(jedis.ping());
    } catch (JedisException notYet) {
      return false;
    }
  }

  private static void await(BooleanSupplier condition, long seconds, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  /** A loopback port P where P and its bus port P + 10000 are both free. */
  private static int freeClusterPort() {
    while (true) {
      int port = LOWEST_PORT + ThreadLocalRandom.current().nextInt(PORT_SPAN);
      if (isFree(port) && isFree(port + BUS_OFFSET)) {
        return port;
      }
    }
  }

  private static boolean isFree(int port) {
    try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return probe.isBound();
    } catch (IOException taken) {
      return false;
    }
  }
}
