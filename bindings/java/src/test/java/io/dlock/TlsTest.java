package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * rediss:// through the URL, against a TLS-only redis-server whose certificates
 * openssl makes here. Skipped only when the native library has no TLS.
 */
class TlsTest {
  private static final List<String> NEW_KEY =
      List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes");
  private static Path dir;
  private static Process server;
  private static int port;

  @BeforeAll
  static void startTlsServer() throws Exception {
    DLockException probe = assertThrows(DLockException.class,
        () -> DLockClient.connect("rediss://127.0.0.1:1?tls_ca=/nonexistent"));
    Assumptions.assumeFalse(probe.getStatus() == DLockStatus.UNSUPPORTED, "this build has no TLS");
    dir = Files.createTempDirectory("dlock-tls");
    makeCa("ca");
    makeCa("other-ca");
    openssl(withNewKey(List.of("req"),
        List.of("-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")));
    Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    openssl(List.of("x509", "-req", "-days", "1", "-in", "server.csr", "-CA", "ca.crt", "-CAkey",
        "ca.key", "-CAcreateserial", "-extfile", "server.ext", "-out", "server.crt"));
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    server = new ProcessBuilder(RedisServer.binary(), "--port", "0", "--tls-port", Integer.toString(port),
            "--tls-cert-file", file("server.crt"), "--tls-key-file", file("server.key"),
            "--tls-ca-cert-file", file("ca.crt"), "--tls-auth-clients", "no", "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", dir.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile())
        .start();
    awaitPong();
  }

  @AfterAll
  static void stopTlsServer() throws Exception {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Test
  void locksOverRedissWithTheCaInTheUrl() {
    try (DLockClient client = DLockClient.connect(url("ca.crt"))) {
      DLock lock = client.getLock("java-over-tls");
      assertTrue(lock.tryLock());
      assertTrue(lock.getFencingToken() > 0);
      assertTrue(lock.isLocked());
      lock.unlock();
      assertFalse(lock.isLocked());
    }
  }

  @Test
  void anUntrustedServerIsAConnectionError() {
    DLockException error =
        assertThrows(DLockException.class, () -> DLockClient.connect(url("other-ca.crt")));
    assertEquals(DLockStatus.CONNECTION, error.getStatus());
    assertTrue(error.getMessage().contains("certificate verify failed"), error.getMessage());
  }

  private static String url(String ca) {
    return "rediss://127.0.0.1:" + port + "?tls_ca=" + file(ca);
  }

  private static String file(String name) {
    return dir.resolve(name).toString();
  }

  private static void makeCa(String name) throws IOException, InterruptedException {
    openssl(withNewKey(List.of("req", "-x509"), List.of("-days", "1", "-subj",
        "/CN=dlock-test-" + name, "-keyout", name + ".key", "-out", name + ".crt")));
  }

  private static List<String> withNewKey(List<String> before, List<String> after) {
    List<String> arguments = new ArrayList<>(before);
    arguments.addAll(NEW_KEY);
    arguments.addAll(after);
    return arguments;
  }

  private static void openssl(List<String> arguments) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of("openssl"));
    line.addAll(arguments);
    Process process = new ProcessBuilder(line).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(dir.resolve("openssl.log").toFile()).start();
    if (process.waitFor() != 0) {
      throw new IOException(line + " failed: " + Files.readString(dir.resolve("openssl.log")));
    }
  }

  private static void awaitPong() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      Process ping = new ProcessBuilder("redis-cli", "--tls", "--cacert", file("ca.crt"), "-p",
          Integer.toString(port), "ping").redirectErrorStream(true).start();
      String answer = new String(ping.getInputStream().readAllBytes()).trim();
      if (ping.waitFor() == 0 && answer.equals("PONG")) {
        return;
      }
      Thread.sleep(20);
    }
    throw new IOException("TLS redis-server did not answer: " + Files.readString(dir.resolve("redis.log")));
  }
}
