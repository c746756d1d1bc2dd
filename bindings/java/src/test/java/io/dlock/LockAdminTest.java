package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** DLock.unlockKeeping, inspect and countAttempt, against a real server. */
class LockAdminTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private DLockClient client;
  private Jedis jedis;
  private DLock lock;
  private String name;

  @BeforeEach
  void open(TestInfo test) {
    client = DLockClient.connect(redis.url());
    jedis = redis.jedis();
    name = test.getTestMethod().orElseThrow().getName();
    lock = client.getLock(name);
  }

  @AfterEach
  void close() {
    client.close();
    jedis.close();
  }

  @Test
  void unlockKeepingLeavesTheLockTakenUntilItLapses() throws Exception {
    lock.lock();
    String field = jedis.hgetAll(name).keySet().iterator().next();

    lock.unlockKeeping(60, TimeUnit.SECONDS);

    assertEquals(Map.of(field + ":kept", "1"), jedis.hgetAll(name));
    assertTrue(jedis.pttl(name) > 59_000);
    assertFalse(lock.isHeldByCurrentThread());
    assertFalse(lock.tryLock(), "not even the same thread acquires a kept lock");
    assertThrows(IllegalMonitorStateException.class, () -> lock.unlockKeeping(1, TimeUnit.SECONDS));
    assertThrows(IllegalArgumentException.class, () -> lock.unlockKeeping(0, TimeUnit.SECONDS));
  }

  @Test
  void unlockKeepingRefusesAReenteredHold() {
    lock.lock();
    lock.lock();
    DLockException refused =
        assertThrows(DLockException.class, () -> lock.unlockKeeping(1, TimeUnit.SECONDS));
    assertEquals(DLockStatus.INVALID, refused.getStatus());
    assertEquals(2, lock.getHoldCount());
  }

  @Test
  void inspectShowsTheHolderLeaseAndToken() {
    LockInfo free = lock.inspect();
    assertFalse(free.isLocked());
    assertEquals(List.of(), free.holders());
    assertEquals(-2, free.remainingLeaseMillis());
    assertTrue(free.lastFencingToken().isEmpty());

    lock.lock(20, TimeUnit.SECONDS);
    LockInfo held = lock.inspect();
    String field = jedis.hgetAll(name).keySet().iterator().next();
    assertEquals(List.of(new LockInfo.Holder(field, 1)), held.holders());
    assertTrue(held.remainingLeaseMillis() > 19_000, held.toString());
    assertEquals(lock.getFencingToken(), held.lastFencingToken().getAsLong());
  }

  @Test
  void inspectOfAKeyThatIsNotALockThrows() {
    jedis.set(name, "plain");
    DLockException error = assertThrows(DLockException.class, lock::inspect);
    assertEquals(DLockStatus.PROTOCOL, error.getStatus());
  }

  @Test
  void countAttemptCountsUpToTheLimit() {
    assertEquals(1, lock.countAttempt("p1", 1, TimeUnit.MINUTES, 2));
    assertEquals(2, lock.countAttempt("p1", 1, TimeUnit.MINUTES, 2));
    assertEquals(0, lock.countAttempt("p1", 1, TimeUnit.MINUTES, 2));
    assertEquals("2", jedis.get("dlock_attempts:{" + name + "}:p1"));
    assertTrue(jedis.pttl("dlock_attempts:{" + name + "}:p1") > 59_000);
    assertEquals(1, lock.countAttempt("p2", 1, TimeUnit.MINUTES, 2));
    assertThrows(IllegalArgumentException.class, () -> lock.countAttempt("p1", 1, TimeUnit.MINUTES, 0));
    assertThrows(NullPointerException.class, () -> lock.countAttempt(null, 1, TimeUnit.MINUTES, 1));
  }
}
