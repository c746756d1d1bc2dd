package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SPEC 14, issue 22: a fixed lease that runs out as asked is an expiry, not a
 * loss: getExpiries(), an INFO record, LockExpiredException (a
 * LockLostException) from the unlock. A watchdog lease that lapses, or a fixed
 * lease taken before its end, stays a loss.
 */
class ExpiryTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();
  private static final long LEASE_MS = 300;

  @RegisterExtension final LogCapture capture = new LogCapture();

  @Test
  void aFixedLeaseThatRunsOutIsAnExpiryNotALoss() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url())) {
      DLock lock = client.getLock("expiring");
      AtomicInteger told = new AtomicInteger();
      lock.setLostListener((name, owner, token) -> told.incrementAndGet());
      assertTrue(lock.tryLock(0, LEASE_MS, TimeUnit.MILLISECONDS));
      assertTrue(Threads.eventually(5, () -> client.getStats().getExpiries() == 1));
      LockLostException thrown = assertThrows(LockLostException.class, lock::unlock,
          "a handler of losses still catches an expiry");
      assertInstanceOf(LockExpiredException.class, thrown);
      assertTrue(thrown.getMessage().contains("ran out as asked"), thrown.getMessage());
      assertEquals(DLockStatus.LOST, thrown.getStatus());
      assertEquals(0, client.getStats().getLocksLost());
      assertTrue(Threads.eventually(5,
          () -> capture.has(Level.INFO, "'expiring'", "expired after")),
          () -> "records: " + capture.messages());
      assertFalse(capture.has(Level.WARNING, "'expiring'"));
      // Told on the watchdog's thread, which may come to it after the count.
      assertTrue(Threads.eventually(5, () -> told.get() == 1),
          "the listener still learns the section is unprotected");
      assertEquals(1, told.get(), "told once");
    }
  }

  @Test
  void everyFixedLeasePrimitiveExpires() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url())) {
      List<DLock> locks = List.of(client.getFairLock("expiring-fair"),
          client.getReadWriteLock("expiring-rw").readLock(),
          client.getReadWriteLock("expiring-rw2").writeLock());
      for (DLock lock : locks) {
        assertTrue(lock.tryLock(0, LEASE_MS, TimeUnit.MILLISECONDS));
      }
      DPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore("expiring-permits");
      assertTrue(semaphore.trySetPermits(1));
      String permit = semaphore.tryAcquire(0, LEASE_MS, TimeUnit.MILLISECONDS);
      assertNotNull(permit);
      assertTrue(Threads.eventually(5, () -> client.getStats().getExpiries() == 4));
      for (DLock lock : locks) {
        assertThrows(LockExpiredException.class, lock::unlock);
      }
      assertThrows(LockExpiredException.class, () -> semaphore.release(permit));
      assertEquals(0, client.getStats().getLocksLost());
    }
  }

  @Test
  void anAsynchronousUnlockFailsWithTheExpiry() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url())) {
      DLock lock = client.getLock("expiring-async");
      assertTrue(lock.tryLock(0, LEASE_MS, TimeUnit.MILLISECONDS));
      assertTrue(Threads.eventually(5, () -> client.getStats().getExpiries() == 1));
      CompletionException failed = assertThrows(CompletionException.class, () -> lock.unlockAsync().join());
      assertInstanceOf(LockExpiredException.class, failed.getCause());
    }
  }

  @Test
  void aWatchdogHoldWhoseKeyIsDeletedIsStillALoss() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url() + "?watchdog_timeout_ms=900");
        DLockClient other = DLockClient.connect(redis.url())) {
      DLock lock = client.getLock("deleted-under-watchdog");
      lock.lock();
      other.getLock("deleted-under-watchdog").forceUnlock();
      assertTrue(Threads.eventually(5, () -> client.getStats().getLocksLost() == 1));
      LockLostException thrown = assertThrows(LockLostException.class, lock::unlock);
      assertFalse(thrown instanceof LockExpiredException, thrown.getMessage());
      assertEquals(0, client.getStats().getExpiries());
      assertTrue(Threads.eventually(5,
          () -> capture.has(Level.WARNING, "'deleted-under-watchdog'", "lost after")));
    }
  }

  @Test
  void aFixedLeaseForceReleasedBeforeItsEndIsALoss() throws Exception {
    try (DLockClient client = DLockClient.connect(redis.url());
        DLockClient other = DLockClient.connect(redis.url())) {
      DLock lock = client.getLock("taken-early");
      assertTrue(lock.tryLock(0, 10, TimeUnit.SECONDS));
      assertTrue(other.getLock("taken-early").forceUnlock());
      LockLostException thrown = assertThrows(LockLostException.class, lock::unlock);
      assertFalse(thrown instanceof LockExpiredException, thrown.getMessage());
      assertEquals(1, client.getStats().getLocksLost());
      assertEquals(0, client.getStats().getExpiries());
    }
  }
}
