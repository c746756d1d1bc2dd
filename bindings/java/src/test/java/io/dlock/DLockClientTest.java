package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import redis.clients.jedis.Jedis;

class DLockClientTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  @Test
  void reportsTheNativeVersion() {
    assertTrue(DLockClient.nativeVersion().matches("\\d+\\.\\d+\\.\\d+"), DLockClient.nativeVersion());
  }

  @Test
  void closeIsIdempotentAndEveryLaterCallThrowsIllegalState() {
    DLockClient client = DLockClient.connect(redis.url());
    DLock lock = client.getLock("client-closed");
    assertFalse(client.isClosed());
    client.close();
    client.close();
    assertTrue(client.isClosed());

    Executable[] calls = {
      () -> client.getLock("client-closed"), () -> client.getLock("never-made"),
      lock::lock, lock::tryLock, lock::lockInterruptibly, lock::unlock, () -> lock.forceUnlock(),
      lock::isLocked, lock::isHeldByCurrentThread, lock::getHoldCount, lock::remainTimeToLive,
      lock::getFencingToken, lock::acquire, () -> lock.tryLock(1, TimeUnit.SECONDS),
      () -> lock.setLostListener((name, owner, token) -> {})
    };
    for (Executable call : calls) {
      assertThrows(IllegalStateException.class, call);
    }
  }

  @Test
  void theSameNameGivesTheSameLock() {
    try (DLockClient client = DLockClient.connect(redis.url())) {
      assertSame(client.getLock("same"), client.getLock("same"));
    }
  }

  @Test
  void badArgumentsThrowInvalid() {
    DLockException url = assertThrows(DLockException.class, () -> DLockClient.connect("http://x"));
    assertEquals(DLockStatus.INVALID, url.getStatus());
    try (DLockClient client = DLockClient.connect(redis.url())) {
      assertEquals(DLockStatus.INVALID,
          assertThrows(DLockException.class, () -> client.getLock("")).getStatus());
      assertEquals(DLockStatus.INVALID,
          assertThrows(DLockException.class, () -> client.getLock("n".repeat(1025))).getStatus());
      DLock lock = client.getLock("bad-times");
      assertThrows(IllegalArgumentException.class, () -> lock.lock(0, TimeUnit.SECONDS));
      assertThrows(IllegalArgumentException.class, () -> lock.tryLock(1, -5, TimeUnit.SECONDS));
    }
  }

  @Test
  void aRedisClientIsServedByTheRedisBackend() {
    DLockClient client = DLockClient.connect(redis.url());
    assertEquals("redis", client.getBackend());
    client.close();
    assertEquals("redis", client.getBackend());
  }

  // Every planned backend is in this build: a scheme dlock has none for is
  // refused before any connection, naming the scheme.
  @Test
  void anUnknownSchemeThrowsInvalidNamingIt() {
    DLockException e = assertThrows(DLockException.class,
        () -> DLockClient.connect("ftp://app:s3cret@127.0.0.1:21/app"));
    assertEquals(DLockStatus.INVALID, e.getStatus());
    assertTrue(e.getMessage().contains("unknown scheme 'ftp'"), e.getMessage());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
  }

  @Test
  void unreachableRedisThrowsConnectionWithoutThePassword() {
    DLockException e = assertThrows(DLockException.class,
        () -> DLockClient.connect("redis://user:s3cret@127.0.0.1:1?connect_timeout_ms=500"));
    assertEquals(DLockStatus.CONNECTION, e.getStatus());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
  }

  @Test
  void closeReleasesHeldLocksAndWakesWaiters() throws Exception {
    DLockClient client = DLockClient.connect(redis.url());
    try (DLockClient other = DLockClient.connect(redis.url()); Jedis jedis = redis.jedis()) {
      client.getLock("close-held").lock();
      other.getLock("close-contended").lock();
      CompletableFuture<Throwable> waiter = CompletableFuture.supplyAsync(() -> {
        try {
          client.getLock("close-contended").lock();
          return null;
        } catch (RuntimeException e) {
          return e;
        }
      });
      Thread.sleep(200);
      assertFalse(waiter.isDone());

      client.close();

      assertTrue(waiter.get(5, TimeUnit.SECONDS) instanceof IllegalStateException);
      assertFalse(jedis.exists("close-held"));
      assertTrue(other.getLock("close-contended").isHeldByCurrentThread());
    }
  }
}
