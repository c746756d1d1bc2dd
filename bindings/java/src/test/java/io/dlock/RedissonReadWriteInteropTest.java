package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import redis.clients.jedis.Jedis;

/** dlock's read-write lock and the real Redisson RReadWriteLock on the same names. */
class RedissonReadWriteInteropTest extends InteropFixture {
  @Test
  void readersOfBothSidesShareAndWritersOfBothSidesExclude() throws Exception {
    RReadWriteLock theirs = redisson.getReadWriteLock("rw-share");
    DReadWriteLock mine = dlock.getReadWriteLock("rw-share");
    theirs.readLock().lock();
    try {
      assertTrue(Threads.onOtherThread(() -> {
        boolean entered = mine.readLock().tryLock();
        if (entered) mine.readLock().unlock();
        return entered;
      }), "a dlock reader was refused beside a Redisson reader");
      assertFalse(Threads.onOtherThread(() -> mine.writeLock().tryLock()), "a dlock writer entered beside a Redisson reader");
      assertTrue(mine.readLock().isLocked());
    } finally {
      theirs.readLock().unlock();
    }

    mine.writeLock().lock();
    try {
      assertTrue(theirs.writeLock().isLocked(), "Redisson does not see dlock's write hold");
      assertFalse(Threads.onOtherThread(() -> theirs.readLock().tryLock()), "a Redisson reader entered beside a dlock writer");
      assertFalse(Threads.onOtherThread(() -> theirs.writeLock().tryLock()), "two writers");
    } finally {
      mine.writeLock().unlock();
    }

    theirs.writeLock().lock();
    try {
      assertTrue(mine.writeLock().isLocked());
      assertFalse(Threads.onOtherThread(() -> mine.readLock().tryLock()), "a dlock reader entered beside a Redisson writer");
    } finally {
      theirs.writeLock().unlock();
    }
  }

  @Test
  void aRedissonReadUnlockKeepsADlockReadersHold() throws Exception {
    RReadWriteLock theirs = redisson.getReadWriteLock("rw-timeout");
    DReadWriteLock mine = dlock.getReadWriteLock("rw-timeout");
    mine.readLock().lock();
    try {
      theirs.readLock().lock();
      theirs.readLock().unlock();  // its unlock scans every read hold's timeout key
      try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
        assertEquals("read", jedis.hget("rw-timeout", "mode"), "Redisson's read unlock deleted dlock's read hold");
        assertTrue(jedis.pttl("rw-timeout") > 0);
      }
      assertFalse(Threads.onOtherThread(() -> theirs.writeLock().tryLock()), "a Redisson writer entered beside a dlock reader");
      assertTrue(mine.readLock().isHeldByCurrentThread());
    } finally {
      mine.readLock().unlock();
    }
    try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
      assertEquals(0, jedis.exists("rw-timeout") ? 1 : 0, "the lock outlived its last reader");
    }
  }

  @Test
  void aRedissonReadUnlockWakesAWaitingDlockWriter() throws Exception {
    RReadWriteLock theirs = redisson.getReadWriteLock("rw-wake-d");
    theirs.readLock().lock();
    long wakeMs = wakeAfter(dlock.getReadWriteLock("rw-wake-d").writeLock(), () -> theirs.readLock().unlock());
    assertTrue(wakeMs < PROMPT_MS, "dlock writer woke " + wakeMs + " ms after Redisson's read unlock");
  }

  @Test
  void aRedissonWriteUnlockWakesAWaitingDlockReader() throws Exception {
    RReadWriteLock theirs = redisson.getReadWriteLock("rw-wake-dr");
    theirs.writeLock().lock();
    long wakeMs = wakeAfter(dlock.getReadWriteLock("rw-wake-dr").readLock(), () -> theirs.writeLock().unlock());
    assertTrue(wakeMs < PROMPT_MS, "dlock reader woke " + wakeMs + " ms after Redisson's write unlock");
  }

  @Test
  void aDlockReadReleaseWakesAWaitingRedissonWriter() throws Exception {
    DReadWriteLock mine = dlock.getReadWriteLock("rw-wake-r");
    mine.readLock().lock();
    long wakeMs = wakeAfter(redisson.getReadWriteLock("rw-wake-r").writeLock(), () -> mine.readLock().unlock());
    assertTrue(wakeMs < PROMPT_MS, "Redisson writer woke " + wakeMs + " ms after dlock's read release");
  }

  @Test
  void aDlockWriteReleaseWakesAWaitingRedissonReader() throws Exception {
    DReadWriteLock mine = dlock.getReadWriteLock("rw-wake-rr");
    mine.writeLock().lock();
    long wakeMs = wakeAfter(redisson.getReadWriteLock("rw-wake-rr").readLock(), () -> mine.writeLock().unlock());
    assertTrue(wakeMs < PROMPT_MS, "Redisson reader woke " + wakeMs + " ms after dlock's write release");
  }

  @Test
  void aDlockWriterDowngradesAndRedissonReadersThenEnter() throws Exception {
    DReadWriteLock mine = dlock.getReadWriteLock("rw-downgrade");
    RReadWriteLock theirs = redisson.getReadWriteLock("rw-downgrade");
    mine.writeLock().lock();
    mine.readLock().lock();
    mine.writeLock().unlock();
    try {
      assertTrue(Threads.onOtherThread(() -> {
        boolean entered = theirs.readLock().tryLock();
        if (entered) theirs.readLock().unlock();
        return entered;
      }), "a Redisson reader was refused after dlock's downgrade");
      assertFalse(Threads.onOtherThread(() -> theirs.writeLock().tryLock()));
    } finally {
      mine.readLock().unlock();
    }
  }

  @Test
  void bothSidesAreLocksWithTheLockInterface() throws Exception {
    DReadWriteLock rw = dlock.getReadWriteLock("rw-api");
    Lock read = rw.readLock();
    Lock write = rw.writeLock();
    assertTrue(write.tryLock(1, TimeUnit.SECONDS));
    write.lock();  // re-entry
    assertEquals(2, rw.writeLock().getHoldCount());
    write.unlock();
    write.unlock();
    read.lockInterruptibly();
    read.unlock();
    assertFalse(rw.writeLock().isLocked());
    assertTrue(rw == dlock.getReadWriteLock("rw-api"));
  }

  @Test
  void badNamesAreRefused() {
    DLockException error = org.junit.jupiter.api.Assertions.assertThrows(DLockException.class,
        () -> dlock.getReadWriteLock(""));
    assertTrue(error.getMessage().contains("name"), error.getMessage());
    org.junit.jupiter.api.Assertions.assertThrows(DLockException.class, () -> dlock.getReadWriteLock("{x}"));
    org.junit.jupiter.api.Assertions.assertThrows(NullPointerException.class, () -> dlock.getReadWriteLock(null));
  }

  /** Blocks `waiter` on another thread, runs `release`, and returns how long the waiter took to get in. */
  private static long wakeAfter(Lock waiter, Runnable release) throws Exception {
    return Threads.msToGrantAfter(waiter, () -> Thread.sleep(300), release);
  }
}
