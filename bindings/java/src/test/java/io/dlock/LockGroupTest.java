package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.Jedis;

/** DMultiLock and DRedLock: Lock semantics, contention, interrupts, bad input, Redisson. */
class LockGroupTest {
  @RegisterExtension static final RedisServer first = new RedisServer();
  @RegisterExtension static final RedisServer second = new RedisServer();
  @RegisterExtension static final RedisServer third = new RedisServer();

  private static final List<DLockClient> clients = new ArrayList<>();

  @BeforeAll
  static void connect() {
    for (RedisServer server : List.of(first, second, third)) {
      clients.add(DLockClient.connect(server.url()));
    }
  }

  @AfterAll
  static void disconnect() {
    clients.forEach(DLockClient::close);
  }

  private static DRedLock redLock(String name) {
    return new DRedLock(clients.get(0).getLock(name), clients.get(1).getLock(name), clients.get(2).getLock(name));
  }

  private static boolean exists(RedisServer server, String key) {
    try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
      return jedis.exists(key);
    }
  }

  @Test
  void groupsAreNotHeldOnceAFixedLeaseRunsOut() throws InterruptedException {
    DLockClient client = clients.get(0);
    DLock plain = client.getLock("lease-plain");
    try (DMultiLock multi = new DMultiLock(client.getLock("lease-a"), client.getLock("lease-b"));
        DRedLock red = redLock("lease-red")) {
      plain.lock(300, TimeUnit.MILLISECONDS);
      multi.lock(300, TimeUnit.MILLISECONDS);
      red.lock(300, TimeUnit.MILLISECONDS);
      assertTrue(plain.isHeldByCurrentThread() && multi.isHeldByCurrentThread() && red.isHeldByCurrentThread());
      assertTrue(Threads.eventually(2, () -> !plain.isHeldByCurrentThread()), "the plain lock");
      assertTrue(Threads.eventually(2, () -> !multi.isHeldByCurrentThread()),
          "the MultiLock, still held after its lease");
      assertTrue(Threads.eventually(2, () -> !red.isHeldByCurrentThread()),
          "the RedLock, still held after its validity");
      assertEquals(1, multi.getHoldCount(), "no longer held, still to be unlocked");
      Thread.sleep(150);  // the servers' leases end too
      assertThrows(LockLostException.class, multi::unlock);
      assertThrows(LockLostException.class, red::unlock);
      assertThrows(LockLostException.class, plain::unlock);
    }
  }

  @Test
  void multiLockTakesEveryMemberAndReenters() {
    DLockClient client = clients.get(0);
    try (DMultiLock lock = new DMultiLock(client.getLock("g-a"), client.getLock("g-b"))) {
      lock.lock();
      lock.lock();
      assertEquals(2, lock.getHoldCount());
      assertTrue(exists(first, "g-a") && exists(first, "g-b"));
      lock.unlock();
      assertTrue(exists(first, "g-a"));
      lock.unlock();
      assertFalse(exists(first, "g-a") || exists(first, "g-b"));
      assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }
  }

  @Test
  void aFailedAttemptLeavesNothingHeld() throws Exception {
    DLock busy = clients.get(1).getLock("g-busy");
    busy.lock();
    try (DMultiLock lock = new DMultiLock(clients.get(0).getLock("g-free"), busy)) {
      assertFalse(Threads.onOtherThread(() -> lock.tryLock(200, TimeUnit.MILLISECONDS)));
      assertFalse(exists(first, "g-free"));
    } finally {
      busy.unlock();
    }
  }

  @Test
  void redLockHoldsEveryServerWithAValidity() throws Exception {
    try (DRedLock lock = redLock("g-red")) {
      assertTrue(lock.tryLock(1, 10, TimeUnit.SECONDS));
      long validity = lock.remainingValidity(TimeUnit.MILLISECONDS);
      assertTrue(validity > 9000 && validity <= 10000 - 102, "validity " + validity);
      for (RedisServer server : List.of(first, second, third)) {
        assertTrue(exists(server, "g-red"));
      }
      try (DRedLock other = redLock("g-red")) {
        assertFalse(Threads.onOtherThread(() -> other.tryLock(100, TimeUnit.MILLISECONDS)));
      }
      lock.unlock();
      assertEquals(0, lock.remainingValidity(TimeUnit.MILLISECONDS));
    }
  }

  @Test
  void lockInterruptiblyHonoursInterrupt() throws Exception {
    try (DRedLock held = redLock("g-interrupt"); DRedLock waiting = redLock("g-interrupt")) {
      held.lock();
      CountDownLatch started = new CountDownLatch(1);
      CompletableFuture<Throwable> outcome = new CompletableFuture<>();
      Thread waiter = new Thread(() -> {
        started.countDown();
        try {
          waiting.lockInterruptibly();
          outcome.complete(null);
        } catch (Throwable e) {
          outcome.complete(e);
        }
      });
      waiter.start();
      started.await();
      Thread.sleep(200);
      long interruptedAt = System.nanoTime();
      waiter.interrupt();
      assertInstanceOf(InterruptedException.class, outcome.get(5, TimeUnit.SECONDS));
      assertTrue(System.nanoTime() - interruptedAt < TimeUnit.MILLISECONDS.toNanos(500));
      held.unlock();
    }
  }

  @Test
  void threadsContendingNeverOverlap() throws Exception {
    List<SectionChecker.Section> sections = Collections.synchronizedList(new ArrayList<>());
    long[] counter = {0};
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    try (DRedLock red = redLock("g-contended")) {
      for (int t = 0; t < 4; t++) {
        String holder = "t" + t;
        workers.add(CompletableFuture.runAsync(() -> {
          for (int i = 0; i < 15; i++) {
            red.lock();
            try {
              long start = System.nanoTime();
              long token = ++counter[0];
              Thread.sleep(1);
              sections.add(new SectionChecker.Section(holder, token, start, System.nanoTime()));
            } catch (InterruptedException e) {
              throw new RuntimeException(e);
            } finally {
              red.unlock();
            }
          }
        }, runnable -> new Thread(runnable).start()));
      }
      CompletableFuture.allOf(workers.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
    }
    assertEquals(60, sections.size());
    assertEquals(List.of(), SectionChecker.violations(new ArrayList<>(sections)));
  }

  @Test
  void badInputIsRefused() {
    DLockClient client = clients.get(0);
    DLockException tooFew = assertThrows(DLockException.class,
        () -> new DRedLock(clients.get(0).getLock("g-bad"), clients.get(1).getLock("g-bad")));
    assertEquals(DLockStatus.INVALID, tooFew.getStatus());
    assertTrue(tooFew.getMessage().contains("count"), tooFew.getMessage());
    DLockException sameServer = assertThrows(DLockException.class,
        () -> new DRedLock(client.getLock("g-bad"), client.getLock("g-bad2"), clients.get(1).getLock("g-bad")));
    assertTrue(sameServer.getMessage().contains("same server"), sameServer.getMessage());
    assertThrows(DLockException.class, () -> new DMultiLock(client.getLock("g-dup"), client.getLock("g-dup")));
    assertThrows(DLockException.class, () -> new DMultiLock());
    assertThrows(NullPointerException.class, () -> new DMultiLock(client.getLock("g-x"), null));
    try (DMultiLock lock = new DMultiLock(client.getLock("g-y"))) {
      assertThrows(IllegalArgumentException.class, () -> lock.tryLock(1, 0, TimeUnit.SECONDS));
      lock.close();
      assertThrows(IllegalStateException.class, lock::tryLock);
    }
  }

  /** A member held by the real Redisson makes the DMultiLock wait, holding none of the others. */
  @Test
  void aMemberHeldByRedissonMakesItWait() throws Exception {
    RedissonClient redisson = first.redisson();
    try (DMultiLock lock = new DMultiLock(clients.get(0).getLock("g-r1"), clients.get(0).getLock("g-r2"),
        clients.get(0).getLock("g-r3"))) {
      RLock rlock = redisson.getLock("g-r2");
      rlock.lock();
      CompletableFuture<Boolean> waiting = Threads.start(() -> {
        boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
        if (acquired) {
          lock.unlock();
        }
        return acquired;
      });
      Thread.sleep(300);
      assertFalse(waiting.isDone());
      assertFalse(exists(first, "g-r1"), "the waiting MultiLock holds no other member");
      assertFalse(exists(first, "g-r3"));
      long unlockedAt = System.nanoTime();
      rlock.unlock();
      assertTrue(waiting.get(5, TimeUnit.SECONDS));
      assertTrue(System.nanoTime() - unlockedAt < TimeUnit.SECONDS.toNanos(2), "woken by Redisson's unlock");
    } catch (ExecutionException e) {
      throw e;
    } finally {
      redisson.shutdown();
    }
  }
}
