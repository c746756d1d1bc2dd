package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DLockClient.connect("zookeeper://...") against a real ZooKeeper server: the same DLock. */
class ZooKeeperClientTest {
  @RegisterExtension static final ZooKeeperServer zookeeper = new ZooKeeperServer();

  @Test
  void theClientNamesItsBackend() {
    try (DLockClient client = DLockClient.connect(zookeeper.url())) {
      assertEquals("zookeeper", client.getBackend());
    }
  }

  @Test
  void aLockIsReentrantFencedAndExcludesAnotherClient() throws Exception {
    try (DLockClient first = DLockClient.connect(zookeeper.url());
        DLockClient second = DLockClient.connect(zookeeper.url())) {
      DLock mine = first.getLock("/app/locks/java");
      DLock theirs = second.getLock("/app/locks/java");
      mine.lock();
      long token = mine.getFencingToken();
      mine.lock();
      assertEquals(token, mine.getFencingToken());
      assertFalse(Threads.onOtherThread(() -> theirs.tryLock()));
      mine.unlock();
      mine.unlock();
      assertGrantedAfter(theirs, token);
    }
  }

  @Test
  void aNonReentrantLockRefusesItsHolderAndExcludesAnotherClient() throws Exception {
    try (DLockClient first = DLockClient.connect(zookeeper.url());
        DLockClient second = DLockClient.connect(zookeeper.url())) {
      DLock mine = first.getNonReentrantLock("/app/locks/java-once");
      DLock theirs = second.getNonReentrantLock("/app/locks/java-once");
      mine.lock();
      long token = mine.getFencingToken();
      assertFalse(mine.tryLock());
      long started = System.nanoTime();
      assertFalse(mine.tryLock(300, TimeUnit.MILLISECONDS));
      assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(290));
      assertEquals(1, mine.getHoldCount());
      assertFalse(Threads.onOtherThread(() -> theirs.tryLock()));
      mine.unlock();
      assertGrantedAfter(theirs, token);
    }
  }

  /** Once the holder released, {@code theirs} is granted on another thread, with a larger token. */
  private static void assertGrantedAfter(DLock theirs, long token) throws Exception {
    long next = Threads.grantedTokenOnOtherThread(theirs);
    assertTrue(next > token, next + " after " + token);
  }

  @Test
  void aPermitSemaphoreIsCuratorsSemaphoreV2() throws Exception {
    try (DLockClient first = DLockClient.connect(zookeeper.url());
        DLockClient second = DLockClient.connect(zookeeper.url())) {
      DPermitExpirableSemaphore mine = first.getPermitExpirableSemaphore("/app/semaphores/java");
      DPermitExpirableSemaphore theirs = second.getPermitExpirableSemaphore("/app/semaphores/java");
      assertTrue(mine.trySetPermits(2));
      assertFalse(theirs.trySetPermits(3));
      String one = mine.tryAcquire();
      String two = theirs.tryAcquire();
      assertTrue(one != null && two != null && !one.equals(two));
      assertEquals(null, theirs.tryAcquire());
      assertEquals(0, mine.availablePermits());
      // Another client's permit is not this one's to release (as Redisson says: no such permit).
      IllegalArgumentException notTheirs =
          assertThrows(IllegalArgumentException.class, () -> theirs.release(one));
      assertTrue(notTheirs.getCause().getMessage().contains("zookeeper"), notTheirs.getCause().getMessage());
      DLockException fixed =
          assertThrows(DLockException.class, () -> theirs.tryAcquire(0, 5, TimeUnit.SECONDS));
      assertEquals(DLockStatus.INVALID, fixed.getStatus());
      mine.release(one);
      String three = theirs.tryAcquire(5, TimeUnit.SECONDS);
      assertTrue(three != null);
      theirs.release(two);
      theirs.release(three);
      assertEquals(2, mine.availablePermits());
    }
  }

  @Test
  void aFixedLeaseIsRefused() {
    try (DLockClient client = DLockClient.connect(zookeeper.url())) {
      DLockException refused =
          assertThrows(DLockException.class, () -> client.getLock("fixed").lock(5, TimeUnit.SECONDS));
      assertEquals(DLockStatus.INVALID, refused.getStatus());
      assertTrue(refused.getMessage().contains("lease_ms"), refused.getMessage());
    }
  }

  @Test
  void aPrimitiveItDoesNotServeNamesTheBackend() {
    try (DLockClient client = DLockClient.connect(zookeeper.url())) {
      DLockException refused = assertThrows(DLockException.class, () -> client.getSemaphore("slots").tryAcquire());
      assertEquals(DLockStatus.UNSUPPORTED, refused.getStatus());
      assertTrue(refused.getMessage().contains("zookeeper"), refused.getMessage());
    }
  }

  @Test
  void anElectionLeadsOneAtATimeAndHandsOverOnResign() throws Exception {
    try (DLockClient first = DLockClient.connect(zookeeper.url());
        DLockClient second = DLockClient.connect(zookeeper.url());
        DElection mine = first.getElection("/app/elections/java");
        DElection theirs = second.getElection("/app/elections/java")) {
      assertFalse(theirs.leader().isPresent());
      long term = mine.campaign("host-a:8080");
      assertEquals(DElection.NOT_ELECTED, theirs.campaign("host-b:8080", 0, TimeUnit.MILLISECONDS));
      Leader seen = theirs.leader().orElseThrow();
      assertEquals("host-a:8080", seen.value());
      assertEquals(term, seen.term());
      mine.proclaim("host-a:9090");
      assertEquals("host-a:9090", theirs.leader().orElseThrow().value());
      CompletableFuture<Long> next = theirs.campaignAsync("host-b:8080");
      Thread.sleep(200);
      assertFalse(next.isDone(), "led while the first still led");
      mine.resign();
      long nextTerm = next.get(10, TimeUnit.SECONDS);
      assertTrue(nextTerm > term, nextTerm + " after " + term);
      assertEquals("host-b:8080", mine.leader().orElseThrow().value());
      theirs.resign();
    }
  }

  @Test
  void aHoldWhoseNodeIsDeletedIsToldLostAndItsUnlockThrows() throws Exception {
    try (DLockClient holder = DLockClient.connect(zookeeper.url());
        DLockClient operator = DLockClient.connect(zookeeper.url())) {
      DLock held = holder.getLock("/app/locks/java-lost");
      CompletableFuture<Long> told = new CompletableFuture<>();
      held.setLostListener((name, thread, token) -> told.complete(token));
      held.lock();
      long token = held.getFencingToken();
      assertTrue(operator.getLock("/app/locks/java-lost").forceUnlock());  // deletes the holder's node
      assertEquals(token, told.get(10, TimeUnit.SECONDS));
      assertFalse(held.isHeldByCurrentThread());
      assertThrows(LockLostException.class, held::unlock);
    }
  }
}
