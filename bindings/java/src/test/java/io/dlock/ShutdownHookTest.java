package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** A JVM that exits with a client still open releases its locks (no waiting out a lease). */
class ShutdownHookTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @Test
  void exitingWithAnOpenClientReleasesItsLocks() throws Exception {
    ChildJvm.Result run = ChildJvm.run(Path.of(System.getProperty("java.home"), "bin", "java"),
        System.getProperty("java.class.path"),
        List.of("-D" + NativeLoader.PATH_PROPERTY + "=" + System.getProperty("dlock.native.library")),
        ShutdownProbe.class.getName(), redis.url() + "?watchdog_timeout_ms=30000", "shutdown-held");
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("held"), run.output());
    try (Jedis jedis = redis.jedis()) {
      assertFalse(jedis.exists("shutdown-held"), "the lock outlived its process");
    }
  }
}
