package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import redis.clients.jedis.Jedis;

/** dlock and the real Redisson guarding the same names. */
class RedissonInteropTest extends InteropFixture {
  @Test
  void aRedissonHoldExcludesDlock() throws Exception {
    RLock rlock = redisson.getLock("interop-r-holds");
    rlock.lock();
    try {
      DLock lock = dlock.getLock("interop-r-holds");
      assertTrue(lock.isLocked());
      assertFalse(Threads.onOtherThread(() -> lock.tryLock()));
      assertFalse(Threads.onOtherThread(() -> lock.tryLock(200, TimeUnit.MILLISECONDS)));
    } finally {
      rlock.unlock();
    }
  }

  @Test
  void aDlockHoldExcludesRedisson() throws Exception {
    DLock lock = dlock.getLock("interop-d-holds");
    lock.lock();
    try {
      RLock rlock = redisson.getLock("interop-d-holds");
      assertTrue(rlock.isLocked());
      assertFalse(Threads.onOtherThread(() -> rlock.tryLock()));
      assertFalse(Threads.onOtherThread(() -> rlock.tryLock(200, TimeUnit.MILLISECONDS)));
    } finally {
      lock.unlock();
    }
  }

  @Test
  void aRedissonUnlockWakesABlockedDlockWaiter() throws Exception {
    RLock rlock = redisson.getLock("interop-wake-d");
    rlock.lock();
    DLock lock = dlock.getLock("interop-wake-d");
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Long> acquiredAt = Threads.start(() -> {
      waiting.countDown();
      assertTrue(lock.tryLock(20, TimeUnit.SECONDS));
      long at = System.nanoTime();
      lock.unlock();
      return at;
    });
    waiting.await();
    Thread.sleep(300);
    assertFalse(acquiredAt.isDone());

    long releasedAt = System.nanoTime();
    rlock.unlock();

    long wakeMs = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt);
    assertTrue(wakeMs < PROMPT_MS, "dlock waiter woke " + wakeMs + " ms after Redisson's unlock");
  }

  @Test
  void aDlockReleaseWakesABlockedRedissonWaiter() throws Exception {
    DLock lock = dlock.getLock("interop-wake-r");
    lock.lock();
    RLock rlock = redisson.getLock("interop-wake-r");
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Long> acquiredAt = Threads.start(() -> {
      waiting.countDown();
      assertTrue(rlock.tryLock(20, TimeUnit.SECONDS));
      long at = System.nanoTime();
      rlock.unlock();
      return at;
    });
    waiting.await();
    Thread.sleep(300);
    assertFalse(acquiredAt.isDone());

    long releasedAt = System.nanoTime();
    lock.unlock();

    long wakeMs = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt);
    assertTrue(wakeMs < PROMPT_MS, "Redisson waiter woke " + wakeMs + " ms after dlock's release");
  }

  @Test
  void fencedLockTokensAndDlockTokensFormOneRisingSequence() throws Exception {
    RFencedLock fenced = redisson.getFencedLock("interop-tokens");
    DLock lock = dlock.getLock("interop-tokens");
    long previous = 0;
    for (int round = 0; round < 10; round++) {
      long redissonToken = fenced.lockAndGetToken();
      fenced.unlock();
      assertTrue(redissonToken > previous, "Redisson " + redissonToken + " after " + previous);
      lock.lock();
      long dlockToken = lock.getFencingToken();
      lock.unlock();
      assertTrue(dlockToken > redissonToken, "dlock " + dlockToken + " after " + redissonToken);
      previous = dlockToken;
    }
  }

  @Test
  void aDlockUnlockByANonOwnerLeavesARedissonHoldIntact() throws Exception {
    RLock rlock = redisson.getLock("interop-foreign-d");
    rlock.lock();
    try (Jedis jedis = redis.jedis()) {
      Map<String, String> before = jedis.hgetAll("interop-foreign-d");
      assertThrows(IllegalMonitorStateException.class, dlock.getLock("interop-foreign-d")::unlock);
      assertEquals(before, jedis.hgetAll("interop-foreign-d"));
      assertTrue(jedis.pttl("interop-foreign-d") > 0);
      assertTrue(rlock.isHeldByCurrentThread());
    } finally {
      rlock.unlock();
    }
  }

  @Test
  void aRedissonUnlockByANonOwnerLeavesADlockHoldIntact() throws Exception {
    DLock lock = dlock.getLock("interop-foreign-r");
    lock.lock();
    try (Jedis jedis = redis.jedis()) {
      Map<String, String> before = jedis.hgetAll("interop-foreign-r");
      ExecutionException failure = assertThrows(ExecutionException.class,
          () -> Threads.onOtherThread(() -> {
            redisson.getLock("interop-foreign-r").unlock();
            return null;
          }));
      assertInstanceOf(IllegalMonitorStateException.class, failure.getCause());
      // The test thread is a non-owner for Redisson too, under its own client id.
      assertThrows(IllegalMonitorStateException.class, redisson.getLock("interop-foreign-r")::unlock);
      assertEquals(before, jedis.hgetAll("interop-foreign-r"));
      assertTrue(jedis.pttl("interop-foreign-r") > 0);
      assertTrue(lock.isHeldByCurrentThread());
    } finally {
      lock.unlock();
    }
  }
}
