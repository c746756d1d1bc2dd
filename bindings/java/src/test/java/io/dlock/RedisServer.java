package io.dlock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A real redis-server on a free loopback port, without persistence, started
 * before a test class and stopped after it:
 * {@code @RegisterExtension static final RedisServer redis = new RedisServer();}
 * (public for the integrations' tests, which take it from the test-jar)
 */
public final class RedisServer implements BeforeAllCallback, AfterAllCallback {
  private Process process;
  private Path dir;
  private int port;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    stop();
  }

  public void start() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("dlock-redis");
    port = freePort();
    launch();
  }

  /** Kills the server (as a crash: without persistence every key is gone) and starts it again on the same port. */
  void restart() throws IOException, InterruptedException {
    process.destroyForcibly().waitFor();
    launch();
  }

  private void launch() throws IOException, InterruptedException {
    process = new ProcessBuilder(binary(), "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile())
        .start();
    awaitPong();
  }

  /** $DLOCK_TEST_REDIS_SERVER when set (e.g. valkey-server), as for the C++ and Python tests. */
  static String binary() {
    String configured = System.getenv("DLOCK_TEST_REDIS_SERVER");
    return configured == null || configured.isEmpty() ? "redis-server" : configured;
  }

  public void stop() throws IOException, InterruptedException {
    if (process != null) {
      process.destroy();
      TestServers.awaitEnd(process);
      process = null;
    }
    if (dir != null) {
      TestServers.deleteTree(dir);
    }
  }

  public int port() {
    return port;
  }

  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** A Redisson client on this server; the caller shuts it down. */
  RedissonClient redisson() {
    Config config = new Config();
    config.useSingleServer().setAddress(url());
    return Redisson.create(config);
  }

  /** A plain client for inspecting keys; close it after use. */
  Jedis jedis() {
    return new Jedis("127.0.0.1", port);
  }

  private void awaitPong() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
      }
      if (answersPing()) {
        return;
      }
      Thread.sleep(20);
    }
    throw new IOException("redis-server on port " + port + " did not answer PING");
  }

  private boolean answersPing() {
    try (Jedis jedis = jedis()) {
      return "PONG".equals(jedis.ping());
    } catch (JedisConnectionException notYet) {
      return false;
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
