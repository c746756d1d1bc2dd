package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

class DLockTest extends PerTestLock {
  @Test
  void lockStoresRedissonsLayoutWithTheJavaThreadAsOwner() {
    lock.lock();
    Map<String, String> fields = jedis.hgetAll(name);
    assertEquals(1, fields.size(), fields.toString());
    String field = fields.keySet().iterator().next();
    assertTrue(field.endsWith(":" + Thread.currentThread().getId()), field);
    assertTrue(jedis.pttl(name) > 0);
    assertTrue(lock.isLocked());
    assertTrue(lock.isHeldByCurrentThread());
    assertEquals(1, lock.getHoldCount());

    lock.unlock();

    assertFalse(jedis.exists(name));
    assertFalse(lock.isLocked());
    assertFalse(lock.isHeldByCurrentThread());
  }

  @Test
  void holdsAreReentrantAndCounted() throws Exception {
    lock.lock();
    assertTrue(lock.tryLock());
    assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
    assertEquals(3, lock.getHoldCount());
    for (int remaining = 2; remaining >= 0; remaining--) {
      assertFalse(Threads.onOtherThread(() -> client.getLock(name).tryLock()));
      lock.unlock();
      assertEquals(remaining, lock.getHoldCount());
    }
    assertFalse(jedis.exists(name));
    assertTrue(Threads.onOtherThread(() -> {
      boolean acquired = lock.tryLock();
      lock.unlock();
      return acquired;
    }));
  }

  @Test
  void ownershipFollowsJavaThreads() throws Exception {
    lock.lock();
    assertFalse(Threads.onOtherThread(lock::isHeldByCurrentThread));
    assertEquals(0, Threads.onOtherThread(lock::getHoldCount));
    assertFalse(Threads.onOtherThread(() -> lock.tryLock()));
    assertTrue(Threads.onOtherThread(lock::isLocked));
    lock.unlock();
  }

  @Test
  void unlockWithoutAHoldThrowsIllegalMonitorState() {
    assertThrows(IllegalMonitorStateException.class, lock::unlock);
    assertThrows(IllegalMonitorStateException.class, lock::getFencingToken);
  }

  @Test
  void unlockByAnotherThreadLeavesTheHoldIntact() throws Exception {
    lock.lock();
    Map<String, String> before = jedis.hgetAll(name);

    ExecutionException failure =
        assertThrows(ExecutionException.class, () -> Threads.onOtherThread(() -> {
          lock.unlock();
          return null;
        }));

    assertInstanceOf(IllegalMonitorStateException.class, failure.getCause());
    assertEquals(before, jedis.hgetAll(name));
    assertTrue(jedis.pttl(name) > 0);
    assertTrue(lock.isHeldByCurrentThread());
    lock.unlock();
  }

  @Test
  void timedTryLockWaitsForARelease() throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    var holder = Threads.start(() -> {
      lock.lock();
      held.countDown();
      Thread.sleep(300);
      lock.unlock();
      return null;
    });
    held.await();
    assertFalse(lock.tryLock());
    assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
    lock.unlock();
    holder.get();
  }

  @Test
  void timedTryLockGivesUpWhenTheWaitRunsOut() throws Exception {
    Threads.onOtherThread(() -> {
      lock.lock(5, TimeUnit.SECONDS);
      return null;
    });
    long start = System.nanoTime();
    assertFalse(lock.tryLock(200, TimeUnit.MILLISECONDS));
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(150));
    assertEquals(0, lock.getHoldCount());
  }

  @Test
  void aFixedLeaseEndsTheHoldAndALateUnlockReportsTheLoss() throws Exception {
    lock.lock(300, TimeUnit.MILLISECONDS);
    long ttl = lock.remainTimeToLive();
    assertTrue(ttl > 0 && ttl <= 300, "ttl " + ttl);

    long nextHolder = Threads.onOtherThread(() -> {
      assertTrue(lock.tryLock(5, TimeUnit.SECONDS));
      return Thread.currentThread().getId();
    });

    assertThrows(LockLostException.class, lock::unlock);
    String field = jedis.hgetAll(name).keySet().iterator().next();
    assertTrue(field.endsWith(":" + nextHolder), field);
  }

  @Test
  void tryLockWithALeaseSetsIt() throws Exception {
    assertTrue(lock.tryLock(0, 500, TimeUnit.MILLISECONDS));
    long ttl = lock.remainTimeToLive();
    assertTrue(ttl > 0 && ttl <= 500, "ttl " + ttl);
    lock.unlock();
  }

  @Test
  void theWatchdogLeaseIsKeptAlive() {
    lock.lock();
    assertTrue(lock.remainTimeToLive() > 20_000);
    lock.unlock();
    assertEquals(-2, lock.remainTimeToLive());
  }

  @Test
  void forceUnlockFreesAnyHolder() throws Exception {
    assertFalse(lock.forceUnlock(), "a free lock was reported as freed");
    lock.lock();
    assertTrue(Threads.onOtherThread(() -> client.getLock(name).forceUnlock()));
    assertFalse(jedis.exists(name));
    assertFalse(lock.isLocked());
    assertThrows(LockLostException.class, lock::unlock);
  }

  @Test
  void conditionsAreUnsupported() {
    assertThrows(UnsupportedOperationException.class, lock::newCondition);
  }

  @Test
  void tryWithResourcesHoldsForTheBlock() {
    long token;
    try (LockHold hold = lock.acquire()) {
      assertTrue(lock.isHeldByCurrentThread());
      token = hold.fencingToken();
      assertEquals(lock.getFencingToken(), token);
      hold.close();
      hold.close();
      assertFalse(lock.isHeldByCurrentThread());
    }
    try (LockHold hold = lock.acquire(2, TimeUnit.SECONDS)) {
      assertTrue(hold.fencingToken() > token);
      assertTrue(lock.remainTimeToLive() <= 2000);
    }
    assertFalse(jedis.exists(name));
  }

  @Test
  void worksThroughTheLockInterface() {
    Lock plain = lock;
    plain.lock();
    try {
      assertTrue(lock.isHeldByCurrentThread());
    } finally {
      plain.unlock();
    }
    assertFalse(lock.isLocked());
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
