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
    try (DLockClient client = DLockClient.builder().url(redis.url())
            .connectTimeout(Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(1))
            .watchdogTimeout(Duration.ofMillis(900)).poolSize(2).build();
         Jedis jedis = redis.jedis()) {
      DLock lock = client.getLock("builder-watchdog");
      lock.lock();
      long ttl = jedis.pttl("builder-watchdog");
      assertTrue(ttl > 0 && ttl <= 900, "lease " + ttl);
      lock.unlock();
    }
  }

  @Test
  void theUrlsOptionsOverrideTheBuilders() {
    try (DLockClient client = DLockClient.builder().url(redis.url() + "?watchdog_timeout_ms=600")
            .watchdogTimeout(Duration.ofSeconds(30)).build();
         Jedis jedis = redis.jedis()) {
      DLock lock = client.getLock("builder-url-wins");
      lock.lock();
      long ttl = jedis.pttl("builder-url-wins");
      assertTrue(ttl > 0 && ttl <= 600, "lease " + ttl);
      lock.unlock();
    }
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
}
