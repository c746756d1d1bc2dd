package io.dlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What the tests' servers (Redis, ZooKeeper, PostgreSQL) share at their end. */
final class TestServers {
  private TestServers() {}

  /** Waits up to 10 s for a server asked to end, then kills it. */
  static void awaitEnd(Process process) throws InterruptedException {
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  /** Removes a server's directory and everything in it. */
  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
