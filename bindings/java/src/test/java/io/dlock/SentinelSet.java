package io.dlock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One master, two replicas and three sentinels ({@code redis-server --sentinel})
 * on free loopback ports, the master monitored as {@code m} (quorum 2,
 * down-after 1000 ms, failover-timeout 5000 ms), for a test class:
 * {@code @RegisterExtension static final SentinelSet sentinels = new SentinelSet();}
 */
final class SentinelSet implements BeforeAllCallback, AfterAllCallback {
  static final String MASTER_NAME = "m";

  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> nodePorts = new ArrayList<>();
  private final List<Integer> sentinelPorts = new ArrayList<>();
  private Path dir;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    dir = Files.createTempDirectory("dlock-sentinel");
    for (int i = 0; i < 3; i++) {
      int port = freePort();
      List<String> command = new ArrayList<>(List.of(RedisServer.binary(), "--port", Integer.toString(port),
          "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
          "--dbfilename", "dump" + port + ".rdb"));
      if (i > 0) {
        command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(nodePorts.get(0))));
      }
      start(command, "node" + port + ".log");
      nodePorts.add(port);
      await(() -> answers(port), "redis-server on port " + port);
    }
    for (int i = 0; i < 3; i++) {
      int port = freePort();
      Path config = dir.resolve("sentinel" + i + ".conf");
      Files.writeString(config, "port " + port + "\nbind 127.0.0.1\ndir " + dir + "\n"
          + "sentinel announce-ip 127.0.0.1\n"
          + "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + nodePorts.get(0) + " 2\n"
          + "sentinel down-after-milliseconds " + MASTER_NAME + " 1000\n"
          + "sentinel failover-timeout " + MASTER_NAME + " 5000\n");
      start(List.of(RedisServer.binary(), config.toString(), "--sentinel"), "sentinel" + i + ".log");
      sentinelPorts.add(port);
      await(() -> answers(port), "sentinel on port " + port);
    }
    await(this::healthy, "two online replicas");
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    for (Process process : processes) {
      process.destroyForcibly().waitFor();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  String url() {
    return "redis-sentinel://"
        + sentinelPorts.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","))
        + "#" + MASTER_NAME;
  }

  int masterPort() {
    try (Jedis sentinel = new Jedis("127.0.0.1", sentinelPorts.get(0))) {
      return Integer.parseInt(sentinel.sentinelGetMasterAddrByName(MASTER_NAME).get(1));
    }
  }

  /** A plain client of the data node on {@code port}; close it after use. */
  Jedis node(int port) {
    return new Jedis("127.0.0.1", port);
  }

  /** SENTINEL FAILOVER (retried while refused); returns the new master's port. */
  int failover() throws InterruptedException {
    int old = masterPort();
    await(() -> {
      try (Jedis sentinel = new Jedis("127.0.0.1", sentinelPorts.get(0))) {
        return "OK".equals(sentinel.sentinelFailover(MASTER_NAME));
      } catch (JedisException refused) {
        return false;
      }
    }, "SENTINEL FAILOVER accepted");
    await(() -> masterPort() != old && isMaster(masterPort()), "a new master");
    return masterPort();
  }

  private boolean isMaster(int port) {
    try (Jedis node = node(port)) {
      return node.info("replication").contains("role:master");
    }
  }

  private boolean healthy() {
    try (Jedis master = node(masterPort())) {
      String info = master.info("replication");
      return info.split("state=online", -1).length - 1 == 2;
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  private void start(List<String> command, String log) throws IOException {
    processes.add(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(log).toFile()).start());
  }

  private static boolean answers(int port) {
    try (Jedis jedis = new Jedis("127.0.0.1", port)) {
      return "PONG".equals(jedis.ping());
    } catch (JedisException notYet) {
      return false;
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
