package io.dlock.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DLockClient;
import io.dlock.RedisServer;
import io.dlock.Threads;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two registries on two clients, as two application instances would have. */
class DLockRegistryTest {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private DLockClient firstClient;
  private DLockClient secondClient;
  private DLockRegistry first;
  private DLockRegistry second;

  @BeforeEach
  void connect() {
    firstClient = DLockClient.connect(redis.url());
    secondClient = DLockClient.connect(redis.url());
    first = new DLockRegistry(firstClient);
    second = new DLockRegistry(secondClient);
  }

  @AfterEach
  void close() {
    firstClient.close();
    secondClient.close();
  }

  @Test
  void aKeyExcludesAcrossRegistries() throws Exception {
    Lock lock = first.obtain("orders");
    lock.lock();
    assertFalse(second.obtain("orders").tryLock());
    assertFalse(Threads.onOtherThread(() -> first.obtain("orders").tryLock()),
        "another thread of the same registry got the lock");
    assertTrue(second.obtain("invoices").tryLock(), "another key was locked too");
    lock.unlock();
    assertTrue(second.obtain("orders").tryLock());
  }

  @Test
  void locksAreReentrantPerThread() throws Exception {
    Lock lock = first.obtain("batch");
    lock.lock();
    assertTrue(first.obtain("batch").tryLock(), "the holding thread could not re-enter");
    lock.unlock();
    assertFalse(second.obtain("batch").tryLock(), "one unlock of two freed the lock");
    lock.unlock();
    assertTrue(second.obtain("batch").tryLock());
  }

  @Test
  void executeLockedRunsUnderTheLock() throws Exception {
    boolean excludedWhileRunning = first.executeLocked("report",
        () -> Threads.onOtherThread(() -> !second.obtain("report").tryLock()));
    assertTrue(excludedWhileRunning);
    assertFalse(firstClient.getLock("report").isLocked());
  }

  @Test
  void keysMustBeStrings() {
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
        () -> first.obtain(42));
    assertTrue(thrown.getMessage().contains("lockKey"), thrown.getMessage());
    assertEquals("lockKey", assertThrows(NullPointerException.class,
        () -> first.obtain(null)).getMessage());
  }
}
