package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every primitive's {@code ...Async} wait: the future completes once granted,
 * with false (or null) when its wait runs out, and cancelling it cancels the
 * wait and leaves nothing taken. Locks are held for another owner id, so the
 * waits of the test's thread are refused.
 */
class AsyncWaitsTest {
  @RegisterExtension static final RedisServer first = new RedisServer();
  @RegisterExtension static final RedisServer second = new RedisServer();
  @RegisterExtension static final RedisServer third = new RedisServer();

  /** An owner id that is no thread of this JVM. */
  private static final long OTHER = 1_000_001;

  private List<DLockClient> clients;
  private DLockClient client;
  private String name;

  /** One primitive and its asynchronous waits. */
  private interface Blocked {
    void hold() throws Exception;

    void letGo() throws Exception;

    /** A wait of at most {@code millis}: completes with a grant, or false or null. */
    CompletableFuture<?> tryAsync(long millis);

    /** A wait as long as it takes. */
    CompletableFuture<?> waitAsync();

    /** Gives back what a wait took (its future's value). */
    void giveBack(Object granted) throws Exception;
  }

  @BeforeEach
  void connect(TestInfo test) {
    clients = List.of(DLockClient.connect(first.url()), DLockClient.connect(second.url()),
        DLockClient.connect(third.url()));
    client = clients.get(0);
    name = test.getTestMethod().orElseThrow().getName();
  }

  @AfterEach
  void close() {
    clients.forEach(DLockClient::close);
  }

  @Test
  void semaphore() throws Exception {
    DSemaphore semaphore = client.getSemaphore(name);
    semaphore.trySetPermits(1);
    grantedTimedOutCancelled(new Blocked() {
      public void hold() {
        assertTrue(semaphore.tryAcquire());
      }

      public void letGo() {
        semaphore.release();
      }

      public CompletableFuture<?> tryAsync(long millis) {
        return semaphore.tryAcquireAsync(millis, TimeUnit.MILLISECONDS);
      }

      public CompletableFuture<?> waitAsync() {
        return semaphore.acquireAsync();
      }

      public void giveBack(Object granted) {
        semaphore.release();
      }
    });
    assertEquals(1, semaphore.availablePermits());
  }

  @Test
  void permitSemaphore() throws Exception {
    DPermitExpirableSemaphore permits = client.getPermitExpirableSemaphore(name);
    permits.trySetPermits(1);
    String[] held = new String[1];
    grantedTimedOutCancelled(new Blocked() {
      public void hold() {
        held[0] = permits.tryAcquire();
      }

      public void letGo() {
        permits.release(held[0]);
      }

      public CompletableFuture<?> tryAsync(long millis) {
        return permits.tryAcquireAsync(millis, TimeUnit.MILLISECONDS);
      }

      public CompletableFuture<?> waitAsync() {
        return permits.acquireAsync();
      }

      public void giveBack(Object granted) {
        permits.release((String) granted);
      }
    });
    assertEquals(1, permits.availablePermits());
  }

  @Test
  void countDownLatch() throws Exception {
    DCountDownLatch latch = client.getCountDownLatch(name);
    grantedTimedOutCancelled(new Blocked() {
      public void hold() {
        latch.trySetCount(1);
      }

      public void letGo() {
        latch.countDown();
      }

      public CompletableFuture<?> tryAsync(long millis) {
        return latch.awaitAsync(millis, TimeUnit.MILLISECONDS);
      }

      public CompletableFuture<?> waitAsync() {
        return latch.awaitAsync();
      }

      public void giveBack(Object granted) {}
    });
  }

  @Test
  void readSide() throws Exception {
    DReadWriteLock rw = client.getReadWriteLock(name);
    grantedTimedOutCancelled(lockSide(rw.writeLock(), rw.readLock()));
  }

  @Test
  void writeSide() throws Exception {
    DReadWriteLock rw = client.getReadWriteLock(name);
    grantedTimedOutCancelled(lockSide(rw.readLock(), rw.writeLock()));
  }

  @Test
  void fairLock() throws Exception {
    grantedTimedOutCancelled(lockSide(client.getFairLock(name), client.getFairLock(name)));
  }

  @Test
  void multiLock() throws Exception {
    DMultiLock group = new DMultiLock(client.getLock(name + "-a"), client.getLock(name + "-b"));
    grantedTimedOutCancelled(lockGroup(group, List.of(client.getLock(name + "-b"))));
    assertFalse(client.getLock(name + "-a").isLocked());
  }

  @Test
  void redLock() throws Exception {
    DRedLock group = new DRedLock(clients.get(0).getLock(name), clients.get(1).getLock(name),
        clients.get(2).getLock(name));
    // A majority held by another owner keeps the RedLock from anyone.
    grantedTimedOutCancelled(lockGroup(group, List.of(clients.get(0).getLock(name), clients.get(1).getLock(name))));
    assertFalse(clients.get(2).getLock(name).isLocked());
  }

  @Test
  void closingAGroupEndsItsWaitInProgress() throws Exception {
    DLock member = client.getLock(name + "-b");
    member.lockAsync(OTHER).get(10, TimeUnit.SECONDS);
    DMultiLock group = new DMultiLock(client.getLock(name + "-a"), client.getLock(name + "-b"));
    CompletableFuture<Void> waiting = group.lockAsync();
    Thread.sleep(100);
    group.close();
    assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
    member.unlockAsync(OTHER).get(10, TimeUnit.SECONDS);
    assertFalse(client.getLock(name + "-a").isLocked());
  }

  /** {@code waited} for the test's thread, refused while {@code held} is held by OTHER. */
  private static Blocked lockSide(DLock held, DLock waited) {
    long self = DLock.currentOwner();
    return new Blocked() {
      public void hold() throws Exception {
        held.lockAsync(OTHER).get(10, TimeUnit.SECONDS);
      }

      public void letGo() throws Exception {
        held.unlockAsync(OTHER).get(10, TimeUnit.SECONDS);
      }

      public CompletableFuture<?> tryAsync(long millis) {
        return waited.tryLockAsync(millis, DLock.WATCHDOG_LEASE, TimeUnit.MILLISECONDS, self);
      }

      public CompletableFuture<?> waitAsync() {
        return waited.lockAsync(self);
      }

      public void giveBack(Object granted) {
        waited.unlock();
      }
    };
  }

  private static Blocked lockGroup(DLockGroup group, List<DLock> members) {
    return new Blocked() {
      public void hold() throws Exception {
        for (DLock member : members) {
          member.lockAsync(OTHER).get(10, TimeUnit.SECONDS);
        }
      }

      public void letGo() throws Exception {
        for (DLock member : members) {
          member.unlockAsync(OTHER).get(10, TimeUnit.SECONDS);
        }
      }

      public CompletableFuture<?> tryAsync(long millis) {
        return group.tryLockAsync(millis, TimeUnit.MILLISECONDS);
      }

      public CompletableFuture<?> waitAsync() {
        return group.lockAsync();
      }

      public void giveBack(Object granted) {
        group.unlock();
      }
    };
  }

  private static void grantedTimedOutCancelled(Blocked blocked) throws Exception {
    blocked.hold();
    Object timedOut = blocked.tryAsync(200).get(10, TimeUnit.SECONDS);
    assertTrue(timedOut == null || Boolean.FALSE.equals(timedOut), "timed out: " + timedOut);

    CompletableFuture<?> cancelled = blocked.waitAsync();
    Thread.sleep(100);
    assertTrue(cancelled.cancel(true));

    CompletableFuture<?> waiting = blocked.waitAsync();
    Thread.sleep(200);
    assertFalse(waiting.isDone());
    blocked.letGo();
    blocked.giveBack(waiting.get(10, TimeUnit.SECONDS));

    // The cancelled wait left nothing taken: the next wait is granted.
    Object next = blocked.tryAsync(5_000).get(10, TimeUnit.SECONDS);
    assertTrue(next != null && !Boolean.FALSE.equals(next), "after the cancelled wait: " + next);
    blocked.giveBack(next);
  }
}
