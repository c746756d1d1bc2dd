package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class DLockClientBuilderTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @Test
  void theWatchdogTimeoutGivenIsTheLeaseOfAHold() {
    long lease = leaseOfAHold(DLockClient.builder().url(redis.url())
        .connectTimeout(Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(1))
        .watchdogTimeout(Duration.ofMillis(900)).poolSize(2));
    assertTrue(lease > 0 && lease <= 900, "lease " + lease);
  }

  @Test
  void theUrlsOptionsOverrideTheBuilders() {
    long lease = leaseOfAHold(DLockClient.builder().url(redis.url() + "?watchdog_timeout_ms=600")
        .watchdogTimeout(Duration.ofSeconds(30)));
    assertTrue(lease > 0 && lease <= 600, "lease " + lease);
  }

  @Test
  void anOutOfRangeOptionIsRefusedByName() {
    DLockException refused = assertThrows(DLockException.class,
        () -> DLockClient.builder().url(redis.url()).poolSize(0).build());
    assertEquals(DLockStatus.INVALID, refused.getStatus());
    assertTrue(refused.getMessage().contains("pool_size"), refused.getMessage());

    refused = assertThrows(DLockException.class,
        () -> DLockClient.builder().url(redis.url()).commandTimeout(Duration.ZERO).build());
    assertTrue(refused.getMessage().contains("command_timeout_ms"), refused.getMessage());
  }

  @Test
  void aBuilderWithoutAUrlSaysSo() {
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> DLockClient.builder().build());
    assertTrue(missing.getMessage().contains("url"), missing.getMessage());
  }

  /** The remaining lease of a watchdog hold taken through the client built. */
  private static long leaseOfAHold(DLockClientBuilder builder) {
    try (DLockClient client = builder.build(); Jedis jedis = redis.jedis()) {
      DLock lock = client.getLock("builder-lease");
      lock.lock();
      try {
        return jedis.pttl("builder-lease");
      } finally {
        lock.unlock();
      }
    }
  }
}
