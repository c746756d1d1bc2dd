package io.dlock;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real standalone ZooKeeper server (Debian's zookeeper package, or the
 * classpath in $DLOCK_TEST_ZOOKEEPER_CLASSPATH) on a free loopback port,
 * started before a test class and killed after it, with the settings of the
 * C++ and Python tests' servers (tests/support/zk_ensemble.cpp):
 * {@code @RegisterExtension static final ZooKeeperServer zookeeper = new ZooKeeperServer();}
 */
public final class ZooKeeperServer extends ServerExtension {
  static final String DEBIAN_JAR = "/usr/share/java/zookeeper.jar";
  static final String DEBIAN_LOGGER = "/usr/share/java/slf4j-simple.jar";

  /** The server's classpath, or null when this machine has no ZooKeeper server. */
  static String classpath() {
    String configured = System.getenv("DLOCK_TEST_ZOOKEEPER_CLASSPATH");
    if (configured != null && !configured.isEmpty()) {
      return configured;
    }
    if (!Files.isReadable(Path.of(DEBIAN_JAR))) {
      return null;
    }
    return Files.isReadable(Path.of(DEBIAN_LOGGER)) ? DEBIAN_JAR + ":" + DEBIAN_LOGGER : DEBIAN_JAR;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String classpath = classpath();
    if (classpath == null) {
      throw new IOException("no ZooKeeper server: " + DEBIAN_JAR + " (Debian's zookeeper package) is missing");
    }
    dir = Files.createTempDirectory("dlock-zk");
    port = RedisServer.freePort();
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("zoo.cfg"),
        "tickTime=200\ninitLimit=10\nsyncLimit=5\ndataDir=" + dir.resolve("data") + "\n"
            + "clientPort=" + port + "\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n"
            + "4lw.commands.whitelist=*\nminSessionTimeout=400\nmaxSessionTimeout=4000\nforceSync=no\n");
    process = new ProcessBuilder("java", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Djava.net.preferIPv4Stack=true", "-Dznode.container.checkIntervalMs=1000", "-cp", classpath,
            "org.apache.zookeeper.server.quorum.QuorumPeerMain", dir.resolve("zoo.cfg").toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("server.log").toFile())
        .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("ZooKeeper exited: " + Files.readString(dir.resolve("server.log")));
      }
      if ("imok".equals(fourLetterWord("ruok"))) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IOException("ZooKeeper on 127.0.0.1:" + port + " did not answer ruok");
  }

  public String url() {
    return "zookeeper://127.0.0.1:" + port;
  }

  /** The server's answer to a four-letter word ("ruok"), empty when it does not answer. */
  private String fourLetterWord(String word) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write(word.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException notYet) {
      return "";
    }
  }
}
