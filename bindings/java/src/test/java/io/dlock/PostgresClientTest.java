package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DLockClient.connect("postgresql://...") against a real PostgreSQL server the test starts: the
 * same DLock, each hold a row of the lock table, read here through psql rather than dlock.
 */
class PostgresClientTest {
  @RegisterExtension static final PostgresServer postgres = new PostgresServer();

  /** The token of name's row while its lease runs, or "" when the name is free. */
  private static String liveToken(String name) throws Exception {
    return postgres.query("SELECT token FROM dlock_locks WHERE name = convert_to('" + name + "', 'UTF8')"
        + " AND lease_until > clock_timestamp()");
  }

  @Test
  void theClientNamesItsBackend() {
    try (DLockClient client = DLockClient.connect(postgres.url())) {
      assertEquals("postgresql", client.getBackend());
    }
  }

  @Test
  void aLockIsAFencedRowReentrantAndExcludingAnotherClient() throws Exception {
    try (DLockClient first = DLockClient.connect(postgres.url());
        DLockClient second = DLockClient.connect(postgres.url())) {
      DLock mine = first.getLock("java-report");
      DLock theirs = second.getLock("java-report");
      mine.lock();
      long token = mine.getFencingToken();
      assertEquals(String.valueOf(token), liveToken("java-report"));
      mine.lock();
      assertEquals(token, mine.getFencingToken());
      assertFalse(Threads.onOtherThread(() -> theirs.tryLock()));
      mine.unlock();
      mine.unlock();
      assertEquals("", liveToken("java-report"));
      long next = Threads.grantedTokenOnOtherThread(theirs);
      assertTrue(next > token, next + " after " + token);
    }
  }

  @Test
  void aWaiterInAnotherClientIsGrantedWhenTheHolderReleases() throws Exception {
    try (DLockClient first = DLockClient.connect(postgres.url());
        DLockClient second = DLockClient.connect(postgres.url())) {
      DLock holder = first.getLock("java-wait");
      holder.lock();
      long held = holder.getFencingToken();
      CompletableFuture<long[]> granted = CompletableFuture.supplyAsync(() -> {
        DLock waiter = second.getLock("java-wait");
        waiter.lock();
        try {
          return new long[] {waiter.getFencingToken(), System.nanoTime()};
        } finally {
          waiter.unlock();
        }
      });
      Thread.sleep(500);
      assertFalse(granted.isDone(), "granted while held");
      long released = System.nanoTime();
      holder.unlock();
      long[] grant = granted.get(10, TimeUnit.SECONDS);
      assertTrue(grant[0] > held, grant[0] + " after " + held);
      // Woken by NOTIFY, not by the end of the holder's 30 s lease.
      assertTrue(grant[1] - released < TimeUnit.SECONDS.toNanos(1), "woken late");
    }
  }

  @Test
  void aPermitSemaphoreLeasesRowsAndWakesAWaiterOnRelease() throws Exception {
    try (DLockClient first = DLockClient.connect(postgres.url());
        DLockClient second = DLockClient.connect(postgres.url())) {
      DPermitExpirableSemaphore mine = first.getPermitExpirableSemaphore("java-slots");
      DPermitExpirableSemaphore theirs = second.getPermitExpirableSemaphore("java-slots");
      DLockException refused = assertThrows(DLockException.class, () -> mine.trySetPermits(0));
      assertEquals(DLockStatus.INVALID, refused.getStatus());
      assertTrue(refused.getMessage().contains("permits"), refused.getMessage());
      assertTrue(mine.trySetPermits(1));
      assertFalse(theirs.trySetPermits(4));
      String held = mine.tryAcquire();
      assertTrue(held != null, "no permit");
      assertEquals("1", postgres.query("SELECT count(*) FROM dlock_semaphore_lease"
          + " WHERE lease_until > clock_timestamp()"));
      assertEquals(null, Threads.onOtherThread(() -> theirs.tryAcquire()));
      CompletableFuture<long[]> granted = CompletableFuture.supplyAsync(() -> {
        try {
          String permit = theirs.tryAcquire(20, TimeUnit.SECONDS);
          long at = System.nanoTime();
          theirs.release(permit);
          return new long[] {at};
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      Thread.sleep(500);
      assertFalse(granted.isDone(), "granted with no permit free");
      long released = System.nanoTime();
      mine.release(held);
      long[] grant = granted.get(15, TimeUnit.SECONDS);
      // Woken by NOTIFY, not by the end of the holder's 30 s lease.
      assertTrue(grant[0] - released < TimeUnit.SECONDS.toNanos(5), "woken late");
      assertEquals(1, mine.availablePermits());
    }
  }

  @Test
  void aPrimitiveItDoesNotServeNamesTheBackend() {
    try (DLockClient client = DLockClient.connect(postgres.url())) {
      DLockException refused = assertThrows(DLockException.class, () -> client.getFairLock("fair").tryLock());
      assertEquals(DLockStatus.UNSUPPORTED, refused.getStatus());
      assertTrue(refused.getMessage().contains("postgresql"), refused.getMessage());
    }
  }

  @Test
  void anElectionIsALeadershipRowWhoseTokenIsTheTerm() throws Exception {
    try (DLockClient first = DLockClient.connect(postgres.url());
        DLockClient second = DLockClient.connect(postgres.url());
        DElection mine = first.getElection("java-leaders");
        DElection theirs = second.getElection("java-leaders")) {
      long term = mine.campaign("host-a:8080");
      assertEquals(String.valueOf(term), liveToken("dlock_election:java-leaders"));
      assertEquals(DElection.NOT_ELECTED, theirs.campaign("host-b:8080", 0, TimeUnit.MILLISECONDS));
      assertEquals("host-a:8080", theirs.leader().orElseThrow().value());
      mine.proclaim("host-a:9090");
      assertEquals("host-a:9090", theirs.leader().orElseThrow().value());
      assertEquals(term, theirs.leader().orElseThrow().term());
      CompletableFuture<Long> next = theirs.campaignAsync("host-b:8080");
      Thread.sleep(200);
      assertFalse(next.isDone(), "led while the first still led");
      mine.resign();
      long nextTerm = next.get(10, TimeUnit.SECONDS);
      assertTrue(nextTerm > term, nextTerm + " after " + term);
      assertEquals("host-b:8080", mine.leader().orElseThrow().value());
      theirs.resign();
      assertFalse(mine.leader().isPresent());
    }
  }

  @Test
  void aSessionModeLockIsItsConnectionsAdvisoryLockAndFenced() throws Exception {
    String url = postgres.url() + "?mode=session";
    try (DLockClient first = DLockClient.connect(url);
        DLockClient second = DLockClient.connect(url)) {
      DLock mine = first.getLock("java-session");
      DLock theirs = second.getLock("java-session");
      mine.lock();
      long token = mine.getFencingToken();
      assertTrue(token > 0);
      assertEquals("", liveToken("java-session"), "session mode writes no lease row");
      assertFalse(Threads.onOtherThread(() -> theirs.tryLock()));
      mine.unlock();
      long next = Threads.grantedTokenOnOtherThread(theirs);
      assertTrue(next > token, next + " after " + token);
    }
  }
}
